import type { DataPoint } from '../../types/device';

/**
 * CSV of the points shown (client-side export): locale-independent on purpose, so any tool reads it:
 * ISO 8601 UTC timestamps, dot decimals, comma separator, a header row of field names. Downsampled
 * points add <field>_min and <field>_max columns beside the average.
 */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'number'
      ? Number.isFinite(value)
        ? String(value)
        : ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function buildCsv(fields: readonly string[], points: readonly DataPoint[]): string {
  const withBands = points.some((p) => p.min || p.max);
  const header = ['created_at', ...fields.flatMap((f) => (withBands ? [f, `${f}_min`, `${f}_max`] : [f]))];
  const rows = [...points]
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
    .map((p) =>
      [
        new Date(p.created_at).toISOString(),
        ...fields.flatMap((f) => (withBands ? [p.data[f], p.min?.[f], p.max?.[f]] : [p.data[f]])),
      ]
        .map(cell)
        .join(','),
    );
  return `${[header.map(cell).join(','), ...rows].join('\n')}\n`;
}

/** File name for the export: device, period start and end as dates. */
export function csvFileName(deviceName: string, from: number, to: number): string {
  const safe = deviceName.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'device';
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `${safe}_${day(from)}_${day(to)}.csv`;
}
