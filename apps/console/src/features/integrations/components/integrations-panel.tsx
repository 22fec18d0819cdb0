import { normaliseNetworkServerUrl } from '@iot/domain';
import { CopyIcon, KeyRoundIcon, PlusIcon, SaveIcon, Trash2Icon } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import {
  useCreateIntegrationToken,
  useIntegrationTokens,
  useRevokeIntegrationToken,
} from '../api/integration-tokens';
import { useNetworkServer, useRemoveNetworkServer, useSaveNetworkServer } from '../api/network-server';
import { TOKEN_KINDS, type TokenKind } from '../types';

/** Where each kind of token is presented (apps/ingest README, "HTTP front door"). */
const WEBHOOK_PATHS: Record<TokenKind, string> = {
  chirpstack: '/ingest/v1/chirpstack',
  tts: '/ingest/v1/ttn',
  http: '/ingest/v1/uplinks/<device uuid>',
};

function WebhookTokens() {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const tokens = useIntegrationTokens();
  const create = useCreateIntegrationToken();
  const revoke = useRevokeIntegrationToken();
  const [kind, setKind] = useState<TokenKind>('chirpstack');
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ kind: TokenKind; token: string } | null>(null);

  const onCreate = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { kind, name: name.trim() },
      {
        onSuccess: (token) => {
          setCreated({ kind: token.kind, token: token.token });
          setName('');
        },
      },
    );
  };
  const askAndRevoke = async (id: number, tokenName: string) => {
    const ok = await overlay.confirm({
      title: t('integrations.tokens.revoke-title'),
      message: t('integrations.tokens.revoke-message', { name: tokenName }),
      confirmLabel: t('integrations.tokens.revoke'),
      destructive: true,
      testId: 'integration-token-revoke-confirm',
    });
    if (ok) revoke.mutate(id, { onSuccess: () => notifySuccess(t('integrations.tokens.revoked')) });
  };

  return (
    <section className="flex flex-col gap-3" data-testid="integration-tokens">
      <div>
        <h3 className="text-sm font-semibold">{t('integrations.tokens.title')}</h3>
        <p className="text-sm text-muted-foreground">{t('integrations.tokens.intro')}</p>
      </div>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={onCreate}
        data-testid="integration-token-form"
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor="integration-token-kind">{t('integrations.tokens.kind')}</Label>
          <NativeSelect
            id="integration-token-kind"
            value={kind}
            onChange={(e) => setKind(e.target.value as TokenKind)}
            data-testid="integration-token-kind"
          >
            {TOKEN_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`integrations.kind.${k}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="flex min-w-40 flex-1 flex-col gap-1">
          <Label htmlFor="integration-token-name">{t('integrations.tokens.name')}</Label>
          <Input
            id="integration-token-name"
            value={name}
            maxLength={255}
            onChange={(e) => setName(e.target.value)}
            data-testid="integration-token-name"
          />
        </div>
        <Button
          type="submit"
          disabled={name.trim() === '' || create.isPending}
          data-testid="integration-token-create"
        >
          <PlusIcon />
          {t('integrations.tokens.create')}
        </Button>
      </form>
      {created && (
        <div
          className="flex flex-col gap-2 rounded-md border border-amber-500 p-3 text-sm"
          data-testid="integration-token-created"
        >
          <p className="font-medium">{t('integrations.tokens.shown-once')}</p>
          <div className="flex items-center gap-2">
            <code
              className="flex-1 break-all rounded bg-muted p-2 text-xs"
              data-testid="integration-token-value"
            >
              {created.token}
            </code>
            <Button
              type="button"
              size="icon"
              variant="outline"
              aria-label={t('integrations.tokens.copy')}
              onClick={() => void navigator.clipboard?.writeText(created.token)}
            >
              <CopyIcon />
            </Button>
          </div>
          <p className="text-muted-foreground">
            {t('integrations.tokens.how', { path: WEBHOOK_PATHS[created.kind] })}
          </p>
        </div>
      )}
      {(tokens.data ?? []).length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="integration-tokens-empty">
          {tokens.isPending ? t('common.loading') : t('integrations.tokens.empty')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y text-sm" data-testid="integration-tokens-list">
          {(tokens.data ?? []).map((token) => (
            <li
              key={token.id}
              className="flex items-center gap-2 py-2"
              data-testid={`integration-token-${token.id}`}
              data-revoked={token.revoked_at !== null}
            >
              <KeyRoundIcon className="size-4 shrink-0 text-muted-foreground" />
              <div className="flex min-w-0 flex-1 flex-col">
                <span className="font-medium">
                  {token.name} <Badge variant="secondary">{t(`integrations.kind.${token.kind}`)}</Badge>
                  {token.revoked_at !== null && (
                    <Badge variant="outline" className="ml-1">
                      {t('integrations.tokens.revoked-badge')}
                    </Badge>
                  )}
                </span>
                <span className="text-xs text-muted-foreground">
                  {token.last_used_at
                    ? t('integrations.tokens.last-used', {
                        time: formatDateTime(token.last_used_at, i18n.language),
                      })
                    : t('integrations.tokens.never-used')}
                </span>
              </div>
              {token.revoked_at === null && (
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={revoke.isPending}
                  onClick={() => void askAndRevoke(token.id, token.name)}
                  data-testid={`integration-token-revoke-${token.id}`}
                >
                  {t('integrations.tokens.revoke')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function NetworkServerForm() {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const server = useNetworkServer();
  const save = useSaveNetworkServer();
  const remove = useRemoveNetworkServer();
  // The form starts from what is stored; null until the answer came (then the stored address, or empty).
  const [apiUrl, setApiUrl] = useState<string | null>(null);
  const [apiToken, setApiToken] = useState('');
  const url = apiUrl ?? server.data?.api_url ?? '';
  const stored = server.data ?? null;
  const urlValid = normaliseNetworkServerUrl(url) !== null;
  const canSave = urlValid && (stored !== null || apiToken.trim() !== '') && !save.isPending;

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      {
        kind: 'chirpstack',
        api_url: url.trim(),
        ...(apiToken.trim() === '' ? {} : { api_token: apiToken.trim() }),
      },
      {
        onSuccess: (saved) => {
          setApiUrl(saved.api_url);
          setApiToken('');
          notifySuccess(t('integrations.network-server.saved'));
        },
      },
    );
  };
  const askAndRemove = async () => {
    const ok = await overlay.confirm({
      title: t('integrations.network-server.remove-title'),
      message: t('integrations.network-server.remove-message'),
      confirmLabel: t('integrations.network-server.remove'),
      destructive: true,
      testId: 'network-server-remove-confirm',
    });
    if (ok) {
      remove.mutate(undefined, {
        onSuccess: () => {
          setApiUrl('');
          setApiToken('');
        },
      });
    }
  };

  return (
    <section
      className="flex flex-col gap-3"
      data-testid="network-server"
      data-state={stored ? 'set' : 'unset'}
    >
      <div>
        <h3 className="text-sm font-semibold">{t('integrations.network-server.title')}</h3>
        <p className="text-sm text-muted-foreground">{t('integrations.network-server.intro')}</p>
        <p className="mt-1 text-sm text-muted-foreground" data-testid="network-server-tts-hint">
          {t('integrations.network-server.tts-hint')}
        </p>
      </div>
      <form className="flex flex-col gap-3" onSubmit={onSave} data-testid="network-server-form">
        <div className="flex flex-col gap-1">
          <Label htmlFor="network-server-kind">{t('integrations.network-server.kind')}</Label>
          <NativeSelect
            id="network-server-kind"
            value="chirpstack"
            disabled
            data-testid="network-server-kind"
          >
            <option value="chirpstack">{t('integrations.kind.chirpstack')}</option>
          </NativeSelect>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="network-server-url">{t('integrations.network-server.url')}</Label>
          <Input
            id="network-server-url"
            value={url}
            placeholder="https://chirpstack.example.com:8080"
            aria-invalid={url !== '' && !urlValid}
            onChange={(e) => setApiUrl(e.target.value)}
            data-testid="network-server-url"
          />
          {url !== '' && !urlValid && (
            <p className="text-xs text-destructive" data-testid="network-server-url-error">
              {t('integrations.network-server.url-invalid')}
            </p>
          )}
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="network-server-token">{t('integrations.network-server.token')}</Label>
          <Input
            id="network-server-token"
            type="password"
            autoComplete="off"
            value={apiToken}
            placeholder={stored ? t('integrations.network-server.token-kept') : ''}
            onChange={(e) => setApiToken(e.target.value)}
            data-testid="network-server-token"
          />
        </div>
        {stored && (
          <p className="text-xs text-muted-foreground" data-testid="network-server-updated">
            {t('integrations.network-server.updated', {
              time: formatDateTime(stored.updated_at, i18n.language),
            })}
          </p>
        )}
        <div className="flex gap-2">
          <Button type="submit" disabled={!canSave} data-testid="network-server-save">
            <SaveIcon />
            {t('common.save')}
          </Button>
          {stored && (
            <Button
              type="button"
              variant="outline"
              disabled={remove.isPending}
              onClick={() => void askAndRemove()}
              data-testid="network-server-remove"
            >
              <Trash2Icon />
              {t('integrations.network-server.remove')}
            </Button>
          )}
        </div>
      </form>
    </section>
  );
}

/**
 * The company's connections to LoRaWAN network servers and scripts (ROLE_ADMIN and ROLE_MAINUSER): the
 * webhook tokens they send uplinks with, and the network server LoRaWAN devices get their downlinks from.
 */
export function IntegrationsPanel() {
  return (
    <div className="flex flex-col gap-6" data-testid="integrations">
      <WebhookTokens />
      <NetworkServerForm />
    </div>
  );
}
