import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { SheetBody } from '../../../components/ui/sheet';
import { useDevices } from '../../../lib/devices/get-devices';
import { formatDateTime, formatNumber } from '../../../lib/format';
import type { Device } from '../../../types/device';
import { useDeviceNotifications } from '../api/get-device-notifications';
import { type DeviceNotification, NOTIFICATION_STATUSES, type NotificationStatus } from '../types';

const ALL = '__all';

const VARIANT = {
  sent: 'default',
  queued: 'secondary',
  failed: 'destructive',
  skipped: 'outline',
} as const satisfies Record<NotificationStatus, string>;

function StatusBadge({ status }: { status: NotificationStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant={VARIANT[status]} data-testid="notification-status">
      {t(`notifications.status.${status}`)}
    </Badge>
  );
}

/** `system` and `device:<id>` are the notifier's names for the message inbox and a remote-controlled device. */
function useRecipientLabel() {
  const { t } = useTranslation();
  const devices = useDevices();
  return (entry: DeviceNotification): string => {
    if (entry.channel === 'system') return t('notifications.recipient.system');
    const target = /^device:(\d+)$/.exec(entry.recipient ?? '');
    if (target) {
      const id = Number(target[1]);
      return devices.data?.find((d) => d.id === id)?.name ?? t('notifications.recipient.device', { id });
    }
    return entry.recipient ?? '';
  };
}

/**
 * What the device's rules sent, one entry per delivery attempt and recipient, newest first: with the device
 * log (why a rule fired or was held back) the answer to "why did the alarm mail not come?". Read-only, for
 * every user of the company; message bodies stay in the outbox (managers).
 */
export function NotificationsDrawer({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<NotificationStatus | null>(null);
  const notifications = useDeviceNotifications(device.id, status);
  const recipientOf = useRecipientLabel();
  const entries = notifications.data ?? [];
  const n = (value: number) => formatNumber(value, i18n.language);
  const detailsOf = (entry: DeviceNotification): string[] => [
    ...(entry.rule_id === null
      ? []
      : [
          entry.rule_name === null
            ? t('notifications.rule-deleted')
            : t('notifications.rule', { name: entry.rule_name }),
        ]),
    ...(entry.attempt !== null && entry.max_attempts !== null
      ? [t('notifications.attempt', { attempt: n(entry.attempt), max: n(entry.max_attempts) })]
      : []),
    ...(entry.status === 'queued' ? [t('notifications.queued-hint')] : []),
  ];
  return (
    <SheetBody className="flex flex-col gap-3 pb-4" data-testid="device-notifications">
      <Select
        value={status ?? ALL}
        onValueChange={(v) => setStatus(v === ALL ? null : (v as NotificationStatus))}
      >
        <SelectTrigger
          className="w-48"
          aria-label={t('notifications.status')}
          data-testid="notifications-status-filter"
        >
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>{t('notifications.all-statuses')}</SelectItem>
          {NOTIFICATION_STATUSES.map((s) => (
            <SelectItem key={s} value={s} data-testid={`notifications-status-${s}`}>
              {t(`notifications.status.${s}`)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {entries.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="notifications-empty">
          {notifications.isPending ? t('common.loading') : t('notifications.empty')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y text-sm" data-testid="notifications-list">
          {entries.map((entry) => (
            <li
              key={entry.id}
              className="flex flex-col gap-1 py-2"
              data-testid="notification-entry"
              data-channel={entry.channel}
              data-status={entry.status}
            >
              <div className="flex flex-wrap items-center gap-2">
                <StatusBadge status={entry.status} />
                <span className="font-medium" data-testid="notification-channel">
                  {t(`rules.channels.${entry.channel as 'email'}`, entry.channel)}
                </span>
                <span className="text-xs text-muted-foreground">
                  {formatDateTime(entry.created_at, i18n.language)}
                </span>
                {entry.final && (
                  <Badge variant="outline" data-testid="notification-final">
                    {t('notifications.final')}
                  </Badge>
                )}
              </div>
              <p className="break-words" data-testid="notification-recipient">
                {recipientOf(entry)}
              </p>
              <p className="text-xs text-muted-foreground" data-testid="notification-rule">
                {detailsOf(entry).join(' · ')}
              </p>
              {entry.error !== null && (
                <p className="break-words text-xs text-destructive" data-testid="notification-error">
                  {entry.error}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </SheetBody>
  );
}
