import { describe, expect, it } from 'vitest';
import type { Device } from '../../types/device';
import {
  EMPTY_FILTER,
  filterDevices,
  filterOptions,
  formatDeviceFilter,
  parseDeviceFilter,
} from './device-filters';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const HOUR = 3_600_000;

function device(id: number, extra: Partial<Device> = {}): Device {
  return {
    id,
    name: `Device ${id}`,
    state: 'ok',
    is_active: true,
    battery_level: 90,
    last_online_at: new Date(NOW - HOUR).toISOString(),
    field_times: { temperature: new Date(NOW - HOUR).toISOString() },
    ...extra,
  };
}

describe('device filter in the URL', () => {
  it('round-trips every filter through path and query, keeping the sort param', () => {
    const filter = {
      preset: 'offline' as const,
      search: 'cellar 2',
      state: 'maintenance' as const,
      groupId: 7,
      type: 'nbiot_soil_sensor',
      online: 'offline' as const,
      stale: true,
      battery: 'low' as const,
    };
    const { path, search } = formatDeviceFilter(filter, new URLSearchParams('sort=-name&q=old'));
    expect(path).toBe('/devices/offline');
    const params = new URLSearchParams(search);
    expect(params.get('sort')).toBe('-name');
    expect(params.get('q')).toBe('cellar 2');
    expect(parseDeviceFilter('offline', params)).toEqual(filter);
  });

  it.each([
    ['unknown preset and values are dropped', 'nonsense', 'state=happy&battery=huge&group=x&online=maybe'],
    ['an empty URL is the empty filter', undefined, ''],
  ])('%s', (_name, segment, query) => {
    expect(parseDeviceFilter(segment, new URLSearchParams(query))).toEqual(EMPTY_FILTER);
  });

  it('an empty filter is the bare path', () => {
    expect(formatDeviceFilter(EMPTY_FILTER)).toEqual({ path: '/devices', search: '' });
  });
});

describe('filtering the device list', () => {
  const devices = [
    device(1, { name: 'Cellar probe', group: { id: 3, name: 'Cellar' }, device_type: 'nbiot_soil_sensor' }),
    device(2, { is_active: false, battery_level: 5 }),
    // newest value 9 hours old: stale (over 8 hours, spec section 4)
    device(3, { field_times: { temperature: new Date(NOW - 9 * HOUR).toISOString() }, battery_level: 40 }),
    device(4, { mains_powered: true, battery_level: null, state: 'broken' }),
    device(5, { battery_level: null }),
  ];
  const ids = (f: Partial<typeof EMPTY_FILTER>) =>
    filterDevices(devices, { ...EMPTY_FILTER, ...f }, NOW).map((d) => d.id);

  it.each([
    ['search by name, case-insensitive', { search: 'CELLAR' }, [1]],
    ['search by group name', { search: 'cellar' }, [1]],
    ['offline preset', { preset: 'offline' as const }, [2]],
    ['online filter', { online: 'online' as const }, [1, 3, 4, 5]],
    ['stale: newest value older than 8 hours', { stale: true }, [3]],
    ['battery preset: low, empty, alert', { preset: 'battery' as const }, [2, 3]],
    ['battery bucket alert (0 to 10)', { battery: 'alert' as const }, [2]],
    ['battery bucket low (over 30)', { battery: 'low' as const }, [3]],
    ['battery bucket power (mains)', { battery: 'power' as const }, [4]],
    ['battery bucket off (no value)', { battery: 'off' as const }, [5]],
    ['alarms: offline, stale, critical battery or broken', { preset: 'alarms' as const }, [2, 3, 4]],
    ['state', { state: 'broken' as const }, [4]],
    ['group', { groupId: 3 }, [1]],
    ['type', { type: 'nbiot_soil_sensor' }, [1]],
  ])('%s', (_name, filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it('offers the groups and types present in the list', () => {
    expect(filterOptions(devices)).toEqual({
      groups: [{ id: 3, name: 'Cellar' }],
      types: ['nbiot_soil_sensor'],
    });
  });
});

describe('key values of a row', async () => {
  const { keyFields } = await import('./device-columns');
  it('metadata order first, then by name, without battery, signal and position', () => {
    const d = device(9, {
      data: {
        temperature: 1,
        humidity: 2,
        battery_level: 80,
        signal_strength: 3,
        co2: 400,
        door: true,
        geo: [1, 2],
      },
      metadata: { data_fields: [{ data_field: 'humidity', label: 'Hum', sort: 1 }] },
    });
    expect(keyFields(d)).toEqual(['humidity', 'co2', 'door']);
  });
});
