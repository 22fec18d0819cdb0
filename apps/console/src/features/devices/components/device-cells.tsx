import {
  type BatteryBucket,
  batteryLabelKey,
  type LastOnlineBucket,
  type LogLevel,
  lastOnlineBucket,
  STALE_DATA_HOURS,
  signalLevel,
} from '@iot/domain';
import {
  BatteryFullIcon,
  BatteryIcon,
  BatteryLowIcon,
  BatteryMediumIcon,
  BatteryWarningIcon,
  ClockAlertIcon,
  CloudSunIcon,
  CpuIcon,
  DropletIcon,
  MousePointerClickIcon,
  PlugZapIcon,
  RadioTowerIcon,
  RouterIcon,
  SnowflakeIcon,
  SproutIcon,
  WifiOffIcon,
} from 'lucide-react';
import type * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { Tooltip, TooltipContent, TooltipTrigger } from '../../../components/ui/tooltip';
import { describeField } from '../../../lib/field-display';
import { dataFieldLabel } from '../../../lib/field-label';
import { formatDateTime, formatNumber, localeTag } from '../../../lib/format';
import { cn } from '../../../lib/utils';
import type { TranslationKey } from '../../../types/translation-key';

const BATTERY_ICONS: Record<BatteryBucket, { icon: React.ElementType; className: string }> = {
  power: { icon: PlugZapIcon, className: 'text-sky-600' },
  full: { icon: BatteryFullIcon, className: 'text-emerald-600' },
  medium: { icon: BatteryMediumIcon, className: 'text-emerald-600' },
  low: { icon: BatteryLowIcon, className: 'text-amber-500' },
  empty: { icon: BatteryIcon, className: 'text-orange-600' },
  alert: { icon: BatteryWarningIcon, className: 'text-destructive' },
  off: { icon: BatteryIcon, className: 'text-muted-foreground/50' },
};

/** Battery icon per the domain's bucket (spec section 4) with the value in the tooltip. */
export function BatteryCell({
  bucket,
  level,
  voltage,
}: {
  bucket: BatteryBucket;
  level: number | null | undefined;
  voltage?: number | null | undefined;
}) {
  const { t, i18n } = useTranslation();
  const { icon: Icon, className } = BATTERY_ICONS[bucket];
  const parts = [t(batteryLabelKey(bucket))];
  if (bucket !== 'power' && level !== null && level !== undefined) {
    parts.push(`${formatNumber(level, i18n.language, { maximumFractionDigits: 0 })} %`);
  }
  if (voltage !== null && voltage !== undefined) {
    parts.push(`${formatNumber(voltage, i18n.language, { maximumFractionDigits: 2 })} V`);
  }
  const label = parts.join(' · ');
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span
          className="inline-flex"
          role="img"
          data-testid="battery-icon"
          data-bucket={bucket}
          aria-label={label}
        >
          <Icon className={cn('size-5', className)} />
        </span>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}

/** Signal strength 1 to 5 as bars; no reading shows five empty bars. */
export function SignalBars({ value, rssi }: { value: number | null | undefined; rssi?: number | null }) {
  const { t } = useTranslation();
  const level = signalLevel(value);
  const label = level === null ? t('display.no-data') : t('devices.signal-of', { level });
  return (
    <span
      className="inline-flex h-4 items-end gap-0.5"
      role="img"
      title={rssi === null || rssi === undefined ? label : `${label} · RSSI ${rssi} dBm`}
      aria-label={label}
      data-testid="signal-bars"
      data-level={level ?? 0}
    >
      {[1, 2, 3, 4, 5].map((bar) => (
        <span
          key={bar}
          className={cn(
            'w-1 rounded-sm',
            level !== null && bar <= level ? 'bg-primary' : 'bg-muted-foreground/25',
          )}
          style={{ height: `${bar * 20}%` }}
        />
      ))}
    </span>
  );
}

export function LastOnlineCell({ value, now }: { value: string | null | undefined; now: number }) {
  const { t, i18n } = useTranslation();
  const bucket: LastOnlineBucket = lastOnlineBucket(value, now);
  return (
    <span className="flex flex-col leading-tight" data-testid="last-online" data-bucket={bucket}>
      <span>{t(`display.last-online.${bucket}`)}</span>
      {value && <span className="text-xs text-muted-foreground">{formatDateTime(value, i18n.language)}</span>}
    </span>
  );
}

export function StaleMarker() {
  const { t } = useTranslation();
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span className="inline-flex text-amber-500" data-testid="stale-marker">
          <ClockAlertIcon className="size-4" />
        </span>
      </TooltipTrigger>
      <TooltipContent>{t('display.stale', { hours: STALE_DATA_HOURS })}</TooltipContent>
    </Tooltip>
  );
}

export function OfflineMarker() {
  const { t } = useTranslation();
  return (
    <span className="inline-flex text-destructive" title={t('display.offline')} data-testid="offline-marker">
      <WifiOffIcon className="size-4" />
    </span>
  );
}

const STATE_VARIANTS: Record<string, 'secondary' | 'warning' | 'destructive' | 'outline'> = {
  ok: 'secondary',
  maintenance: 'warning',
  lost: 'destructive',
  broken: 'destructive',
  disposed: 'outline',
};

export function StateBadge({ state }: { state: string }) {
  const { t, i18n } = useTranslation();
  const key = `devices.state.${state}`;
  return (
    <Badge variant={STATE_VARIANTS[state] ?? 'outline'} data-testid="state-badge" data-state={state}>
      {i18n.exists(key) ? t(key as TranslationKey) : state}
    </Badge>
  );
}

const LEVEL_CLASSES: Record<LogLevel, string> = {
  emergency: 'bg-red-800 text-white',
  alert: 'bg-red-600 text-white',
  critical: 'bg-red-500 text-white',
  error: 'bg-orange-500 text-white',
  warning: 'bg-amber-400 text-black',
  info: 'bg-sky-500 text-white',
  debug: 'bg-slate-400 text-white',
};

export function LogLevelBadge({ level }: { level: LogLevel }) {
  const { t } = useTranslation();
  return (
    <span
      className={cn('inline-flex rounded px-2 py-0.5 text-xs font-semibold', LEVEL_CLASSES[level])}
      data-testid="log-level"
      data-level={level}
    >
      {t(`devices.log-level.${level}`)}
    </span>
  );
}

/** A latest value formatted per field and UI locale, with its class label (pF, UV, Beaufort, sector). */
export function FieldValue({ field, value }: { field: string; value: unknown }) {
  const { t, i18n } = useTranslation();
  const { value: formatted, classKey } = describeField(field, value, localeTag(i18n.language));
  const translate = (key: string) => (i18n.exists(key) ? t(key as TranslationKey) : key);
  return (
    <span className="whitespace-nowrap" data-field-value={field}>
      {formatted.kind === 'key' ? translate(formatted.key) : formatted.text}
      {formatted.kind === 'text' && formatted.unit && (
        <span className="text-muted-foreground"> {formatted.unit}</span>
      )}
      {classKey && <span className="text-muted-foreground"> ({translate(classKey)})</span>}
    </span>
  );
}

/** Field label: the device's metadata label, else the catalogue's label (a virtual field: its name). */
export function fieldLabel(field: string, labels: ReadonlyMap<string, string>): string {
  return dataFieldLabel(field, labels.get(field));
}

const TYPE_ICONS: Record<string, React.ElementType> = {
  nbiot_button: MousePointerClickIcon,
  srd_button: MousePointerClickIcon,
  srd_gateway: RouterIcon,
  nbiot_soil_sensor: SproutIcon,
  nbiot_frost_sensor: SnowflakeIcon,
  nbiot_distance_sensor: DropletIcon,
  nbiot_weatherstation: CloudSunIcon,
};

export function DeviceTypeIcon({ type, className }: { type: string | null | undefined; className?: string }) {
  const Icon = (type && TYPE_ICONS[type]) || (type ? CpuIcon : RadioTowerIcon);
  return <Icon className={className} />;
}

export function useTypeLabel() {
  const { t, i18n } = useTranslation();
  return (type: string | null | undefined) => {
    if (!type) return '–';
    const key = `devices.type.${type}`;
    return i18n.exists(key) ? t(key as TranslationKey) : type;
  };
}
