import type { Device } from '../../types/device';

/**
 * The device list (as filtered on screen) as CSV in the columns POST /core/devices/import reads, so an
 * exported file can be edited and imported again: matched by serial number or DevEUI, updated in place.
 * Locale-independent on purpose (dot decimals, comma separator), like the data export (csv.ts).
 */
const COLUMNS = [
  'name',
  'type',
  'serial_number',
  'dev_eui',
  'location',
  'latitude',
  'longitude',
  'group',
  'description',
];

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function buildDeviceListCsv(devices: readonly Device[]): string {
  const rows = devices.map((d) =>
    [
      d.name,
      d.device_type,
      d.serial_number,
      d.dev_eui,
      d.location,
      d.latitude,
      d.longitude,
      d.group?.name,
      d.description,
    ]
      .map(cell)
      .join(','),
  );
  return `${[COLUMNS.join(','), ...rows].join('\n')}\n`;
}
