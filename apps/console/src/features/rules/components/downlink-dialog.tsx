import { useQuery } from '@tanstack/react-query';
import { SendIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { downlinkErrorText } from '../../../lib/downlink-error';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import type { Device } from '../../../types/device';
import { useDownlinks, useSendDownlink } from '../api/downlinks';
import { deviceRulesQueryOptions } from '../api/get-device-rules';
import { commandErrors, commandParams } from '../rule-form';
import { CommandFields } from './command-fields';

const STATE_VARIANT: Record<string, 'secondary' | 'default' | 'destructive' | 'outline'> = {
  queued: 'outline',
  sent: 'secondary',
  acknowledged: 'default',
  failed: 'destructive',
};

/** Send a command of the domain's catalogue to the device (ROLE_ADMIN, ROLE_MAINUSER) and see its history. */
export function DownlinkDialog({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const [command, setCommand] = useState('request_uplink');
  const [params, setParams] = useState<Record<string, unknown>>({});
  const history = useDownlinks(device.id);
  const send = useSendDownlink(device.id);
  // GET /core/devices/{id} (the rules drawer's query): for managers it says how a command would leave.
  // Read again whenever the dialog opens: a network server set meanwhile changes the answer.
  const details = useQuery({ ...deviceRulesQueryOptions(device.id), refetchOnMount: 'always' });
  const via = details.data?.integration?.downlink_via;
  const noRoute = via === null;
  const errors = commandErrors(command, params);
  const invalid = Object.keys(errors).length > 0;

  return (
    <div className="flex flex-col gap-4" data-testid="downlink">
      <form
        className="flex flex-col gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (invalid || noRoute) return;
          send.mutate(
            { command, params: commandParams(command, params) },
            { onSuccess: () => notifySuccess(t('downlink.sent')) },
          );
        }}
      >
        <CommandFields
          command={command}
          params={params}
          errors={errors}
          onChange={(c, p) => {
            setCommand(c);
            setParams(p);
          }}
          testId="downlink"
        />
        {via !== undefined && (
          <p
            className={noRoute ? 'text-sm text-destructive' : 'text-sm text-muted-foreground'}
            data-testid="downlink-via"
            data-via={via ?? 'none'}
          >
            {t(`downlink.via.${via ?? 'none'}` as const)}
          </p>
        )}
        <Button
          type="submit"
          className="self-end"
          disabled={invalid || noRoute || send.isPending}
          data-testid="downlink-send"
        >
          <SendIcon />
          {t('downlink.send')}
        </Button>
      </form>
      <section>
        <h4 className="mb-1 text-sm font-semibold">{t('downlink.history')}</h4>
        {(history.data ?? []).length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {history.isPending ? t('common.loading') : t('downlink.empty')}
          </p>
        ) : (
          <ul className="flex max-h-64 flex-col gap-1 overflow-y-auto text-sm" data-testid="downlink-history">
            {(history.data ?? []).map((d) => (
              <li
                key={d.id}
                className="flex items-center justify-between gap-2 border-b py-1"
                data-testid={`downlink-${d.id}`}
              >
                <span className="min-w-0">
                  {t(`rules.commands.${d.command as 'reboot'}`, d.command)}
                  {Object.keys(d.params).length > 0 && (
                    <span className="ml-1 text-xs text-muted-foreground">
                      {Object.entries(d.params)
                        .map(([k, v]) => `${k}=${String(v)}`)
                        .join(', ')}
                    </span>
                  )}
                  <span className="block text-xs text-muted-foreground">
                    {formatDateTime(d.created_at, i18n.language)}
                    {d.attempts > 1 && (
                      // A rule's command the broker or network server took only on a retry (one row).
                      <span data-testid="downlink-attempts">
                        {' · '}
                        {t('downlink.attempts', { count: d.attempts })}
                      </span>
                    )}
                  </span>
                  {d.state === 'sent' && d.reference !== null && (
                    <span className="block text-xs text-muted-foreground" data-testid="downlink-awaiting">
                      {t('downlink.awaitingAcknowledgement')}
                    </span>
                  )}
                  {d.acknowledged_at && (
                    <span className="block text-xs text-muted-foreground" data-testid="downlink-acknowledged">
                      {t('downlink.acknowledgedAt', {
                        time: formatDateTime(d.acknowledged_at, i18n.language),
                      })}
                    </span>
                  )}
                  {d.error && (
                    <span className="block text-xs text-destructive" data-testid="downlink-error">
                      {downlinkErrorText(d.error, t, i18n.language)}
                    </span>
                  )}
                </span>
                <Badge
                  variant={STATE_VARIANT[d.state] ?? 'outline'}
                  data-testid="downlink-state"
                  data-state={d.state}
                >
                  {t(`downlink.state.${d.state as 'sent'}`, d.state)}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
