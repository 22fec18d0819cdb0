import { parseDecimal } from '@iot/domain';
import type { DataPoint, DeviceSeries } from '../types/device';

/**
 * Shapes the data answer for uPlot: one x array in seconds and, per field, the values (the average
 * when downsampled) and, for buckets, the minimum and maximum drawn as a band so peaks stay visible.
 */
export interface FieldSeries {
  field: string;
  values: (number | null)[];
  min: (number | null)[] | null;
  max: (number | null)[] | null;
}

export interface ChartData {
  x: number[];
  fields: FieldSeries[];
  downsampled: boolean;
}

export function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '' || typeof value === 'boolean') return null;
  const n = parseDecimal(value);
  return Number.isFinite(n) ? n : null;
}

function sortedPoints(points: readonly DataPoint[]): DataPoint[] {
  return [...points].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
}

export function toChartData(
  series: Pick<DeviceSeries, 'points' | 'downsampled'>,
  fields: readonly string[],
): ChartData {
  const points = sortedPoints(series.points);
  const hasBands = series.downsampled || points.some((p) => p.min || p.max);
  return {
    x: points.map((p) => Date.parse(p.created_at) / 1000),
    downsampled: series.downsampled,
    fields: fields.map((field) => ({
      field,
      values: points.map((p) => toNumber(p.data[field])),
      min: hasBands ? points.map((p) => toNumber(p.min?.[field] ?? p.data[field])) : null,
      max: hasBands ? points.map((p) => toNumber(p.max?.[field] ?? p.data[field])) : null,
    })),
  };
}

/**
 * uPlot's aligned data for one field: [x, value] or [x, value, min, max] when there is a band. Points
 * without this field are left out (devices send different fields per uplink, and a field reported
 * less often than the bucket width has empty buckets), so the line joins the field's own readings.
 */
export function uplotFieldData(chart: ChartData, index: number): (number | null)[][] {
  const field = chart.fields[index];
  if (!field) return [chart.x];
  const keep = field.values.flatMap((v, i) => (v === null ? [] : [i]));
  const pick = (values: (number | null)[]) => keep.map((i) => values[i] ?? null);
  const x = keep.map((i) => chart.x[i] ?? 0);
  return field.min && field.max
    ? [x, pick(field.values), pick(field.min), pick(field.max)]
    : [x, pick(field.values)];
}

/** Fields worth a chart: those with at least one number in the answer, else the current numeric fields. */
export function numericFields(values: Record<string, unknown>, order: readonly string[] = []): string[] {
  const names = Object.keys(values).filter(
    (k) => toNumber(values[k]) !== null && k !== 'latitude' && k !== 'longitude',
  );
  const rank = (name: string) => {
    const i = order.indexOf(name);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
