import type { Device, MetadataEntry } from '../../types/device';

/** Fields that have their own column or are not values worth a glance in the list. */
const HIDDEN_IN_LIST = new Set([
  'battery_level',
  'battery_voltage',
  'signal_strength',
  'rssi',
  'snr',
  'latitude',
  'longitude',
  'geo',
]);

export function metadataEntries(device: Pick<Device, 'metadata'>): MetadataEntry[] {
  const list = device.metadata?.data_fields;
  return Array.isArray(list) ? [...list].sort((a, b) => Number(a.sort) - Number(b.sort)) : [];
}

export function metadataLabels(device: Pick<Device, 'metadata'>): Map<string, string> {
  return new Map(metadataEntries(device).map((e) => [e.data_field, e.label]));
}

/** The key latest values of a row: metadata order first, then by name; at most `limit`. */
export function keyFields(device: Device, limit = 3): string[] {
  const values = device.data ?? {};
  const order = metadataEntries(device).map((e) => e.data_field);
  const names = Object.keys(values).filter(
    (k) => !HIDDEN_IN_LIST.has(k) && values[k] !== null && typeof values[k] !== 'object',
  );
  const rank = (n: string) => (order.includes(n) ? order.indexOf(n) : Number.MAX_SAFE_INTEGER);
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).slice(0, limit);
}
