import { FORM_RULES } from '@iot/domain';
import { SaveIcon, Trash2Icon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useDomainForm } from '../../../lib/use-domain-form';
import { useNetworkServer, useRemoveNetworkServer, useSaveNetworkServer } from '../api/network-server';
import type { NetworkServer } from '../types';

interface NetworkServerValues {
  api_url: string;
  api_token: string;
}

/** The API's rules; the token is required only while none is stored (a blank one keeps the stored one). */
const RULES_WITHOUT_TOKEN = {
  ...FORM_RULES.networkServer,
  api_token: ['required' as const, ...FORM_RULES.networkServer.api_token],
};

function Form({ stored }: { stored: NetworkServer | null }) {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const save = useSaveNetworkServer();
  const remove = useRemoveNetworkServer();
  const { form, summary } = useDomainForm<NetworkServerValues>(
    { api_url: stored?.api_url ?? '', api_token: '' },
    stored ? FORM_RULES.networkServer : RULES_WITHOUT_TOKEN,
  );

  const onSave = form.handleSubmit((values) =>
    save.mutate(
      {
        kind: 'chirpstack',
        api_url: values.api_url.trim(),
        ...(values.api_token.trim() === '' ? {} : { api_token: values.api_token.trim() }),
      },
      { onSuccess: () => notifySuccess(t('integrations.network-server.saved')) },
    ),
  );
  const askAndRemove = async () => {
    const ok = await overlay.confirm({
      title: t('integrations.network-server.remove-title'),
      message: t('integrations.network-server.remove-message'),
      confirmLabel: t('integrations.network-server.remove'),
      destructive: true,
      testId: 'network-server-remove-confirm',
    });
    if (ok) remove.mutate();
  };

  return (
    <form className="flex flex-col gap-3" onSubmit={onSave} noValidate data-testid="network-server-form">
      <FormField name="network-server-kind" label={t('integrations.network-server.kind')} summary={summary}>
        <NativeSelect id="network-server-kind" value="chirpstack" disabled data-testid="network-server-kind">
          <option value="chirpstack">{t('integrations.kind.chirpstack')}</option>
        </NativeSelect>
      </FormField>
      <FormField
        name="api_url"
        label={t('integrations.network-server.url')}
        required
        summary={summary}
        testId="network-server-url"
      >
        <Input
          id="api_url"
          placeholder="https://chirpstack.example.com:8080"
          data-testid="network-server-url"
          {...form.register('api_url')}
        />
      </FormField>
      <FormField
        name="api_token"
        label={t('integrations.network-server.token')}
        required={!stored}
        summary={summary}
        testId="network-server-token"
      >
        <Input
          id="api_token"
          type="password"
          autoComplete="off"
          placeholder={stored ? t('integrations.network-server.token-kept') : ''}
          data-testid="network-server-token"
          {...form.register('api_token')}
        />
      </FormField>
      {stored && (
        <p className="text-xs text-muted-foreground" data-testid="network-server-updated">
          {t('integrations.network-server.updated', {
            time: formatDateTime(stored.updated_at, i18n.language),
          })}
        </p>
      )}
      <div className="flex gap-2">
        <Button
          type="submit"
          disabled={!summary.canSubmit || save.isPending}
          data-testid="network-server-save"
        >
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
  );
}

/**
 * The company's ChirpStack for LoRaWAN downlinks: address and write-only API token, checked with the
 * rules the API applies. The form starts anew from what is stored after each save or removal.
 */
export function NetworkServerForm() {
  const { t } = useTranslation();
  const server = useNetworkServer();
  const stored = server.data ?? null;
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
      {server.isPending ? (
        <p className="text-sm text-muted-foreground">{t('common.loading')}</p>
      ) : (
        <Form key={stored?.updated_at ?? 'unset'} stored={stored} />
      )}
    </section>
  );
}
