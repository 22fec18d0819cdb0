import { BATTERY_BUCKETS } from '@iot/domain';
import type { ColumnDef, SortingFn } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../types/device';
import { keyFields, metadataLabels } from '../device-columns';
import { deviceBattery, deviceIsStale, newestValueTime } from '../device-filters';
import {
  BatteryCell,
  FieldValue,
  fieldLabel,
  LastOnlineCell,
  OfflineMarker,
  SignalBars,
  StaleMarker,
  StateBadge,
  useTypeLabel,
} from './device-cells';

const BATTERY_ORDER = Object.fromEntries(BATTERY_BUCKETS.map((b, i) => [b, i]));
const byBattery: SortingFn<Device> = (a, b) =>
  (a.original.battery_level ?? -1) - (b.original.battery_level ?? -1) ||
  (BATTERY_ORDER[deviceBattery(b.original)] ?? 0) - (BATTERY_ORDER[deviceBattery(a.original)] ?? 0);
const byTime =
  (pick: (d: Device) => string | null | undefined): SortingFn<Device> =>
  (a, b) =>
    Date.parse(pick(a.original) ?? '') - Date.parse(pick(b.original) ?? '') || 0;

function NameCell({ device }: { device: Device }) {
  return (
    <span className="flex min-w-0 items-center gap-2">
      {!device.is_active && <OfflineMarker />}
      <span className="truncate font-medium">{device.name}</span>
    </span>
  );
}

/** The newest values of the device's key fields, each under its label. */
function ValuesCell({ device }: { device: Device }) {
  const labels = metadataLabels(device);
  const fields = keyFields(device);
  return (
    <span className="flex min-w-0 gap-3 overflow-hidden text-xs">
      {fields.map((f) => (
        <span key={f} className="flex flex-col leading-tight">
          <span className="text-muted-foreground">{fieldLabel(f, labels)}</span>
          <FieldValue field={f} value={device.data?.[f]} />
        </span>
      ))}
    </span>
  );
}

/** The device table's columns; stale and last-online are judged against `now`. */
export function useDeviceColumns(now: number): ColumnDef<Device>[] {
  const { t } = useTranslation();
  const typeLabel = useTypeLabel();
  return useMemo<ColumnDef<Device>[]>(
    () => [
      {
        id: 'name',
        accessorFn: (d) => d.name.toLowerCase(),
        header: t('devices.column.name'),
        cell: ({ row }) => <NameCell device={row.original} />,
      },
      {
        id: 'type',
        accessorFn: (d) => d.device_type ?? '',
        header: t('devices.column.type'),
        cell: ({ row }) => <span className="block truncate">{typeLabel(row.original.device_type)}</span>,
      },
      {
        id: 'group',
        accessorFn: (d) => d.group?.name.toLowerCase() ?? '',
        header: t('devices.column.group'),
        cell: ({ row }) => <span className="block truncate">{row.original.group?.name ?? '–'}</span>,
      },
      {
        id: 'battery',
        accessorFn: (d) => d.battery_level ?? -1,
        sortingFn: byBattery,
        header: t('devices.column.battery'),
        cell: ({ row }) => (
          <BatteryCell
            bucket={deviceBattery(row.original)}
            level={row.original.battery_level}
            voltage={row.original.battery_voltage}
          />
        ),
      },
      {
        id: 'last_online',
        accessorFn: (d) => d.last_online_at ?? '',
        sortingFn: byTime((d) => d.last_online_at),
        header: t('devices.column.last-online'),
        cell: ({ row }) => <LastOnlineCell value={row.original.last_online_at} now={now} />,
      },
      {
        id: 'stale',
        accessorFn: (d) => (deviceIsStale(d, now) ? 1 : 0),
        header: '',
        cell: ({ row }) => (deviceIsStale(row.original, now) ? <StaleMarker /> : null),
      },
      {
        id: 'signal',
        accessorFn: (d) => d.signal_strength ?? 0,
        header: t('devices.column.signal'),
        cell: ({ row }) => (
          <SignalBars value={row.original.signal_strength} rssi={row.original.rssi ?? null} />
        ),
      },
      {
        id: 'state',
        accessorFn: (d) => d.state,
        header: t('devices.column.state'),
        cell: ({ row }) => <StateBadge state={row.original.state} />,
      },
      {
        id: 'values',
        accessorFn: (d) => newestValueTime(d) ?? '',
        sortingFn: byTime(newestValueTime),
        header: t('devices.column.values'),
        cell: ({ row }) => <ValuesCell device={row.original} />,
      },
    ],
    [t, typeLabel, now],
  );
}
