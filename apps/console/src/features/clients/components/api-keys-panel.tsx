import { API_KEY_SCOPES, type ApiKeyScope } from '@iot/domain';
import { CopyIcon, KeyRoundIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';

/**
 * The external API's keys in company settings (issue #27): created with a name, scopes and an optional
 * expiry (the key shown this once), listed with use and request count, revoked. Without the licensed
 * module the panel says so instead of calling the API.
 */
export function ApiKeysPanel({ licensed }: { licensed: boolean }) {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const keys = useApiKeys(licensed);
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['devices:read']);
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<string | null>(null);

  if (!licensed) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="api-keys-locked">
        {t('api-keys.locked')}
      </p>
    );
  }
  const toggle = (scope: ApiKeyScope) =>
    setScopes((current) =>
      current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope],
    );
  const onCreate = (event: React.FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), scopes, ...(expires ? { expires_at: new Date(expires).toISOString() } : {}) },
      {
        onSuccess: (key) => {
          setCreated(key.key);
          setName('');
        },
      },
    );
  };
  const askAndRevoke = async (id: number, keyName: string) => {
    const ok = await overlay.confirm({
      title: t('api-keys.revoke-title'),
      message: t('api-keys.revoke-message', { name: keyName }),
      confirmLabel: t('api-keys.revoke'),
      destructive: true,
      testId: 'api-key-revoke-confirm',
    });
    if (ok) revoke.mutate(id, { onSuccess: () => notifySuccess(t('api-keys.revoked')) });
  };

  return (
    <section className="flex flex-col gap-3" data-testid="api-keys">
      <div>
        <h3 className="text-sm font-semibold">{t('api-keys.title')}</h3>
        <p className="text-sm text-muted-foreground">{t('api-keys.intro')}</p>
      </div>
      <form className="flex flex-col gap-2" onSubmit={onCreate} noValidate data-testid="api-key-form">
        <label htmlFor="api-key-name" className="flex flex-col gap-1 text-sm">
          {t('api-keys.name')}
          <Input
            id="api-key-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-testid="api-key-name"
          />
        </label>
        <fieldset className="flex flex-wrap gap-3 text-sm">
          <legend className="mb-1">{t('api-keys.scopes')}</legend>
          {API_KEY_SCOPES.map((scope) => (
            <label key={scope} className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={() => toggle(scope)}
                data-testid={`api-key-scope-${scope}`}
              />
              {t(`api-keys.scope.${scope}`)}
            </label>
          ))}
        </fieldset>
        <label htmlFor="api-key-expires" className="flex flex-col gap-1 text-sm">
          {t('api-keys.expires')}
          <Input
            id="api-key-expires"
            type="datetime-local"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
            data-testid="api-key-expires"
          />
        </label>
        <Button
          type="submit"
          className="self-start"
          disabled={!name.trim() || scopes.length === 0 || create.isPending}
          data-testid="api-key-create"
        >
          <PlusIcon />
          {t('api-keys.create')}
        </Button>
      </form>
      {created && (
        <div
          className="flex flex-col gap-2 rounded-md border border-amber-500 p-3 text-sm"
          data-testid="api-key-created"
        >
          <p className="font-medium">{t('api-keys.shown-once')}</p>
          <div className="flex items-center gap-2">
            <code className="flex-1 break-all rounded bg-muted p-2 text-xs" data-testid="api-key-value">
              {created}
            </code>
            <Button
              type="button"
              size="icon"
              variant="outline"
              aria-label={t('api-keys.copy')}
              onClick={() => void navigator.clipboard?.writeText(created)}
            >
              <CopyIcon />
            </Button>
          </div>
        </div>
      )}
      {(keys.data ?? []).length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="api-keys-empty">
          {keys.isPending ? t('common.loading') : t('api-keys.empty')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y text-sm" data-testid="api-keys-list">
          {(keys.data ?? []).map((key) => (
            <li key={key.id} className="flex items-center gap-2 py-2" data-testid={`api-key-${key.id}`}>
              <KeyRoundIcon className="size-4 shrink-0 text-muted-foreground" />
              <div className="flex min-w-0 flex-1 flex-col">
                <span className="font-medium">
                  {key.name} <code className="text-xs">{key.prefix}…</code>
                  {key.revoked_at !== null && (
                    <Badge variant="outline" className="ml-1">
                      {t('api-keys.revoked-badge')}
                    </Badge>
                  )}
                </span>
                <span className="text-xs text-muted-foreground">
                  {key.scopes.map((s) => t(`api-keys.scope.${s}`)).join(', ')}
                </span>
                <span className="text-xs text-muted-foreground">
                  {key.last_used_at
                    ? t('api-keys.usage', {
                        requests: formatNumber(key.request_count, i18n.language),
                        time: formatDateTime(key.last_used_at, i18n.language),
                      })
                    : t('api-keys.never-used')}
                  {key.expires_at &&
                    ` · ${t('api-keys.expires-at', { time: formatDateTime(key.expires_at, i18n.language) })}`}
                </span>
              </div>
              {key.revoked_at === null && (
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={revoke.isPending}
                  onClick={() => void askAndRevoke(key.id, key.name)}
                  data-testid={`api-key-revoke-${key.id}`}
                >
                  {t('api-keys.revoke')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
