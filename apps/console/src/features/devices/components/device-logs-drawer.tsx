import { LOG_LEVELS, type LogLevel, logLevelName } from '@iot/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { SheetBody } from '../../../components/ui/sheet';
import { formatDateTime } from '../../../lib/format';
import type { Device } from '../../../types/device';
import { useDeviceLogs } from '../api/get-device-logs';
import { LogLevelBadge } from './device-cells';

const ALL = '__all';

/** The device log, newest first, with the spec's levels (emergency..debug) and a level filter. */
export function DeviceLogsDrawer({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const [level, setLevel] = useState<LogLevel | null>(null);
  const logs = useDeviceLogs(device.id, level);
  const entries = logs.data ?? [];
  return (
    <SheetBody className="flex flex-col gap-3 pb-4" data-testid="device-logs">
      <Select value={level ?? ALL} onValueChange={(v) => setLevel(v === ALL ? null : (v as LogLevel))}>
        <SelectTrigger className="w-48" aria-label={t('devices.logs.level')} data-testid="logs-level-filter">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>{t('devices.logs.all-levels')}</SelectItem>
          {LOG_LEVELS.map((l) => (
            <SelectItem key={l} value={l} data-testid={`logs-level-${l}`}>
              {t(`devices.log-level.${l}`)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {entries.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="logs-empty">
          {logs.isPending ? t('common.loading') : t('common.no-data')}
        </p>
      ) : (
        <ul className="flex flex-col divide-y text-sm" data-testid="logs-list">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-1 py-2" data-testid="log-entry">
              <div className="flex items-center gap-2">
                <LogLevelBadge level={logLevelName(entry.level)} />
                <span className="text-xs text-muted-foreground">
                  {formatDateTime(entry.created_at, i18n.language)}
                </span>
              </div>
              <p className="break-words">{entry.message}</p>
              {entry.payload !== null && entry.payload !== undefined && (
                <pre className="max-h-32 overflow-auto rounded bg-muted p-2 text-xs">
                  {JSON.stringify(entry.payload, null, 2)}
                </pre>
              )}
            </li>
          ))}
        </ul>
      )}
    </SheetBody>
  );
}
