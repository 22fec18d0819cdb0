import { FORM_RULES } from '@iot/domain';
import { CopyIcon, KeyRoundIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import {
  useCreateIntegrationToken,
  useIntegrationTokens,
  useRevokeIntegrationToken,
} from '../api/integration-tokens';
import { TOKEN_KINDS, type TokenKind } from '../types';

/** Where each kind of token is presented (apps/ingest README, "HTTP front door"). */
const WEBHOOK_PATHS: Record<TokenKind, string> = {
  chirpstack: '/ingest/v1/chirpstack',
  tts: '/ingest/v1/ttn',
  http: '/ingest/v1/uplinks/<device uuid>',
};

interface TokenFormValues {
  kind: TokenKind;
  name: string;
}

/**
 * The webhook tokens a network server or script sends uplinks with: created (the token shown this once),
 * listed with their last use, revoked. The name is checked with the rules the API applies.
 */
export function WebhookTokens() {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const tokens = useIntegrationTokens();
  const create = useCreateIntegrationToken();
  const revoke = useRevokeIntegrationToken();
  const { form, summary } = useDomainForm<TokenFormValues>(
    { kind: 'chirpstack', name: '' },
    FORM_RULES.integrationToken,
  );
  const [created, setCreated] = useState<{ kind: TokenKind; token: string } | null>(null);

  const onCreate = form.handleSubmit((values) =>
    create.mutate(
      { kind: values.kind, name: values.name.trim() },
      {
        onSuccess: (token) => {
          setCreated({ kind: token.kind, token: token.token });
          form.reset({ kind: values.kind, name: '' });
        },
      },
    ),
  );
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
        noValidate
        data-testid="integration-token-form"
      >
        <FormField name="kind" label={t('integrations.tokens.kind')} summary={summary}>
          <NativeSelect id="kind" data-testid="integration-token-kind" {...form.register('kind')}>
            {TOKEN_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`integrations.kind.${k}`)}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField
          name="name"
          label={t('integrations.tokens.name')}
          required
          summary={summary}
          testId="integration-token-name"
          className="min-w-40 flex-1"
        >
          <Input id="name" data-testid="integration-token-name" {...form.register('name')} />
        </FormField>
        <Button
          type="submit"
          disabled={!summary.canSubmit || create.isPending}
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
