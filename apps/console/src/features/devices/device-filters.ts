import {
  BATTERY_BUCKETS,
  type BatteryBucket,
  batteryBucket,
  DEVICE_STATES,
  type DeviceState,
  isStale,
  readBatteryLevel,
} from '@iot/domain';
import type { Device } from '../../types/device';

/**
 * Filters of the /devices/:filter? screen, kept in the URL: the `:filter` segment is a preset, the rest
 * are query params (q, state, group, type, online, stale, battery). Pure, so the URL round trip is tested.
 */
export const DEVICE_PRESETS = ['online', 'offline', 'stale', 'battery', 'alarms'] as const;
export type DevicePreset = (typeof DEVICE_PRESETS)[number];

export interface DeviceFilterState {
  preset: DevicePreset | null;
  search: string;
  state: DeviceState | null;
  groupId: number | null;
  type: string | null;
  online: 'online' | 'offline' | null;
  stale: boolean;
  battery: BatteryBucket | null;
}

export const EMPTY_FILTER: DeviceFilterState = {
  preset: null,
  search: '',
  state: null,
  groupId: null,
  type: null,
  online: null,
  stale: false,
  battery: null,
};

/** Query params owned by the filters; `sort` belongs to the table and is left alone. */
export const FILTER_PARAMS = ['q', 'state', 'group', 'type', 'online', 'stale', 'battery'] as const;

function oneOf<T extends string>(values: readonly T[], value: string | null | undefined): T | null {
  return value && (values as readonly string[]).includes(value) ? (value as T) : null;
}

export function parseDeviceFilter(segment: string | undefined, params: URLSearchParams): DeviceFilterState {
  const group = Number(params.get('group'));
  return {
    preset: oneOf(DEVICE_PRESETS, segment),
    search: params.get('q') ?? '',
    state: oneOf(DEVICE_STATES, params.get('state')),
    groupId: Number.isInteger(group) && group > 0 ? group : null,
    type: params.get('type') || null,
    online: oneOf(['online', 'offline'] as const, params.get('online')),
    stale: params.get('stale') === '1',
    battery: oneOf(BATTERY_BUCKETS, params.get('battery')),
  };
}

/** The path and the query for a filter state; other params (sort) of `base` are kept. */
export function formatDeviceFilter(
  filter: DeviceFilterState,
  base: URLSearchParams = new URLSearchParams(),
): { path: string; search: string } {
  const params = new URLSearchParams(base);
  for (const key of FILTER_PARAMS) params.delete(key);
  if (filter.search) params.set('q', filter.search);
  if (filter.state) params.set('state', filter.state);
  if (filter.groupId !== null) params.set('group', String(filter.groupId));
  if (filter.type) params.set('type', filter.type);
  if (filter.online) params.set('online', filter.online);
  if (filter.stale) params.set('stale', '1');
  if (filter.battery) params.set('battery', filter.battery);
  const search = params.toString();
  return {
    path: filter.preset ? `/devices/${filter.preset}` : '/devices',
    search: search ? `?${search}` : '',
  };
}

export function activeFilterCount(filter: DeviceFilterState): number {
  return (
    [filter.state, filter.groupId, filter.type, filter.online, filter.battery].filter((v) => v !== null)
      .length + (filter.stale ? 1 : 0)
  );
}

/** Latest values of a device row (device_current). */
export function latestValues(device: Device): Record<string, unknown> {
  return device.data ?? {};
}

/** The newest value time of a device: the latest field time, else the current row's time, else last online. */
export function newestValueTime(device: Device): string | null {
  const times = Object.values(device.field_times ?? {}).filter((t): t is string => !!t);
  if (times.length > 0) return times.reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b));
  return device.data_updated_at ?? device.last_online_at ?? null;
}

export function deviceBattery(device: Device): BatteryBucket {
  const level = readBatteryLevel(device.battery_level ?? latestValues(device).battery_level ?? null);
  return batteryBucket(level, { mainsPowered: device.mains_powered ?? false });
}

export function deviceIsStale(device: Device, now: number): boolean {
  return isStale(newestValueTime(device), now);
}

const LOW_BATTERY: readonly BatteryBucket[] = ['low', 'empty', 'alert'];

function matchesPreset(device: Device, preset: DevicePreset, now: number): boolean {
  switch (preset) {
    case 'online':
      return device.is_active;
    case 'offline':
      return !device.is_active;
    case 'stale':
      return deviceIsStale(device, now);
    case 'battery':
      return LOW_BATTERY.includes(deviceBattery(device));
    case 'alarms': {
      // Devices that need attention: offline, data older than 8 hours, critical battery or a manual fault state.
      const bucket = deviceBattery(device);
      return (
        !device.is_active ||
        deviceIsStale(device, now) ||
        bucket === 'alert' ||
        bucket === 'empty' ||
        device.state === 'broken' ||
        device.state === 'lost'
      );
    }
  }
}

function matchesSearch(device: Device, needle: string): boolean {
  if (!needle) return true;
  const hay = [
    device.name,
    device.serial_number,
    device.uuid,
    device.dev_eui,
    device.location,
    device.group?.name,
  ]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
  return hay.includes(needle);
}

export function filterDevices(devices: readonly Device[], filter: DeviceFilterState, now: number): Device[] {
  const needle = filter.search.trim().toLowerCase();
  return devices.filter(
    (d) =>
      (filter.preset === null || matchesPreset(d, filter.preset, now)) &&
      matchesSearch(d, needle) &&
      (filter.state === null || d.state === filter.state) &&
      (filter.groupId === null || d.group?.id === filter.groupId) &&
      (filter.type === null || d.device_type === filter.type) &&
      (filter.online === null || d.is_active === (filter.online === 'online')) &&
      (!filter.stale || deviceIsStale(d, now)) &&
      (filter.battery === null || deviceBattery(d) === filter.battery),
  );
}

/** Groups and types present in the list, for the filter menus (sorted by name). */
export function filterOptions(devices: readonly Device[]): {
  groups: { id: number; name: string }[];
  types: string[];
} {
  const groups = new Map<number, string>();
  const types = new Set<string>();
  for (const d of devices) {
    if (d.group) groups.set(d.group.id, d.group.name);
    if (d.device_type) types.add(d.device_type);
  }
  return {
    groups: [...groups].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)),
    types: [...types].sort(),
  };
}
