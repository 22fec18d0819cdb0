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
 * The numeric value of `data->field`: JSON numbers as they are, booleans as 1 and 0 (pump and valve
 * states chart as steps), anything else (text, objects) NULL, so one odd value never fails a whole chart.
 * `p` is the placeholder holding the field name.
 */
function numericValue(p: string): string {
  const key = `${p}::text`;
  return `CASE jsonb_typeof(data -> ${key})
    WHEN 'number' THEN (data ->> ${key})::float8
    WHEN 'boolean' THEN CASE WHEN (data -> ${key})::boolean THEN 1.0 ELSE 0.0 END
  END`;
}

/**
 * Downsampled series for charts from the raw rows: one row per bucket of `bucketSeconds` with min, max,
 * sum and count of every field, in one pass over the device's rows of the range. Each row's values are
 * pulled out once in a narrow subquery (OFFSET 0 keeps the planner from inlining it and evaluating the
 * JSONB extraction once per aggregate), so grouping handles a few numbers instead of whole rows. Buckets
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
  const values = fields.map((field, i) => {
    params.push(field);
    return `${numericValue(`$${params.length}`)} AS v${i}`;
  });
  const aggregates = fields.map(
    (_, i) =>
      `, min(v${i}) AS min_${i}, max(v${i}) AS max_${i}, sum(v${i}) AS sum_${i}, count(v${i})::int AS n_${i}`,
  );
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT bucket, count(*)::int AS n ${aggregates.join('')}
       FROM (SELECT date_bin($5::interval, created_at, $6::timestamptz) AS bucket
                    ${values.map((v) => `, ${v}`).join('')}
               FROM device_data
              WHERE device_id = $1 AND company_id = $2 AND created_at >= $3 AND created_at < $4
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
