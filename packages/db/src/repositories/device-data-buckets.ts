/**
 * Downsampled reads of measured data: date_bin buckets with min, max, sum, avg and count per field,
 * computed from the raw rows, and the bucket grid they share with the rollups (device-data-rollups.ts).
 */
import type { Queryable } from '../db';

/** Per-field statistics of one bucket; null where the bucket holds no numeric value of the field. */
export interface FieldStats {
  min: number | null;
  max: number | null;
  avg: number | null;
  sum: number | null;
  /** Numeric values of the field in the bucket. */
  count: number;
}

export interface DataBucketRecord {
  /** Start of the bucket (date_bin with origin 2000-01-01T00:00:00Z). */
  start: Date;
  /** Rows in the bucket. */
  count: number;
  fields: Record<string, FieldStats>;
}

export interface DataRange {
  from: Date;
  /** Exclusive upper bound. */
  to: Date;
}

/** Origin of the bucket grid: buckets of a whole number of minutes, hours or days start on round times. */
export const BUCKET_ORIGIN = '2000-01-01T00:00:00Z';

/**
 * The one series of a device and company (migration 0043), with $1 the device and $2 the company. Used as
 * a LATERAL or scalar source, so the readings' index (series, created_at) serves the
 * range and the order directly.
 */
export const SERIES_OF = 'device_series s WHERE s.device_id = $1 AND s.company_id = $2';

/**
 * The numeric value of a field in a reading (migration 0043): float4 values through their shortest text,
 * which gives back the decimal as stored (21.37, not 21.370000839), so every aggregate is what
 * `(data->>field)::float8` gave from the JSONB rows; float8 values as they are; booleans are 1 and 0 at
 * their position; text and objects have none, so one odd value never fails a whole chart. `p` is the
 * column holding the field's position (NULL: the device never reported it as a number).
 */
function numericValue(p: string): string {
  return `coalesce(r.narrow[${p}]::text::float8, r.wide[${p}])`;
}

/**
 * Downsampled series for charts from the raw rows: one row per bucket of `bucketSeconds` with min, max,
 * sum and count of every field, in one pass over the device's rows of the range. Each row's values are
 * pulled out once in a narrow subquery (OFFSET 0 keeps the planner from inlining it and evaluating the
 * extraction once per aggregate), so grouping handles a few numbers instead of whole rows. Buckets
 * without rows are absent (a chart shows the gap). Field names are bound parameters, never spliced.
 */
export async function readDeviceDataBuckets(
  q: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
  fields: readonly string[],
  bucketSeconds: number,
): Promise<DataBucketRecord[]> {
  checkBucket(bucketSeconds);
  const params: unknown[] = [
    deviceId,
    companyId,
    range.from,
    range.to,
    `${bucketSeconds} seconds`,
    BUCKET_ORIGIN,
  ];
  const positions = fields.map((field, i) => {
    params.push(field);
    return `, array_position(s.fields, $${params.length}::text) AS p${i}`;
  });
  const values = fields.map((_, i) => `, ${numericValue(`p.p${i}`)} AS v${i}`);
  const aggregates = fields.map(
    (_, i) =>
      `, min(v${i}) AS min_${i}, max(v${i}) AS max_${i}, sum(v${i}) AS sum_${i}, count(v${i})::int AS n_${i}`,
  );
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT bucket, count(*)::int AS n ${aggregates.join('')}
       FROM (SELECT date_bin($5::interval, r.created_at, $6::timestamptz) AS bucket ${values.join('')}
               FROM (SELECT s.id ${positions.join('')} FROM ${SERIES_OF}) p
               JOIN device_readings r ON r.series = p.id
              WHERE r.created_at >= $3 AND r.created_at < $4
             OFFSET 0) AS v
      GROUP BY bucket ORDER BY bucket`,
    params,
  );
  return rows.map((row) => ({
    start: row.bucket as Date,
    count: row.n as number,
    fields: Object.fromEntries(
      fields.map((field, i) => [
        field,
        stats(
          row[`min_${i}`] as number | null,
          row[`max_${i}`] as number | null,
          row[`sum_${i}`] as number | null,
          (row[`n_${i}`] as number | null) ?? 0,
        ),
      ]),
    ),
  }));
}

export function binStartOf(t: number, seconds: number): number {
  const origin = Date.parse(BUCKET_ORIGIN);
  const widthMs = seconds * 1000;
  return origin + Math.floor((t - origin) / widthMs) * widthMs;
}

function checkBucket(bucketSeconds: number): void {
  if (!Number.isInteger(bucketSeconds) || bucketSeconds <= 0) {
    throw new RangeError(`bucketSeconds must be a positive integer, got ${bucketSeconds}`);
  }
}

export function stats(min: number | null, max: number | null, sum: number | null, count: number): FieldStats {
  return {
    min,
    max,
    avg: count > 0 && sum !== null ? sum / count : null,
    sum: count > 0 ? sum : null,
    count,
  };
}
