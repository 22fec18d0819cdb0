/**
 * Reads of measured data for the console and the API: raw points, the newest record, downsampled buckets
 * for charts, and the latest values per field. Data rows keep the company that owned the device when they
 * were recorded, so every read filters by the acting company as well as the device.
 */
import type { Queryable } from '../db';

export interface DataPointRecord {
  createdAt: Date;
  /** Only the requested fields (all fields when none were requested). */
  data: Record<string, unknown>;
  latitude: number | null;
  longitude: number | null;
  metalabel: string | null;
}

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

/** Keeps only `fields` of a data object (SQL side, so unrequested fields never leave the database). */
function pickFields(fieldsParam: string): string {
  return `CASE WHEN ${fieldsParam}::text[] IS NULL THEN data
    ELSE (SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb) FROM jsonb_each(data)
           WHERE key = ANY(${fieldsParam}::text[])) END`;
}

interface PointRow {
  created_at: Date;
  data: Record<string, unknown>;
  latitude: number | null;
  longitude: number | null;
  metalabel: string | null;
}

function toPoint(row: PointRow): DataPointRecord {
  return {
    createdAt: row.created_at,
    data: row.data,
    latitude: row.latitude,
    longitude: row.longitude,
    metalabel: row.metalabel,
  };
}

/** Rows of a device in a range (the unique index (device_id, created_at DESC, message_id) serves it). */
export async function countDeviceData(
  q: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM device_data
      WHERE device_id = $1 AND company_id = $2 AND created_at >= $3 AND created_at < $4`,
    [deviceId, companyId, range.from, range.to],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The points of a range, oldest first; `fields` null = every field. Both reads below order exactly like
 * the index (device_id, created_at DESC, message_id), read forwards or backwards, so no sort is needed and
 * the newest record is a single index entry.
 */
export async function readDeviceData(
  q: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
  fields: readonly string[] | null,
): Promise<DataPointRecord[]> {
  const { rows } = await q.query<PointRow>(
    `SELECT created_at, ${pickFields('$5')} AS data, latitude, longitude, metalabel FROM device_data
      WHERE device_id = $1 AND company_id = $2 AND created_at >= $3 AND created_at < $4
      ORDER BY created_at, message_id DESC`,
    [deviceId, companyId, range.from, range.to, fields],
  );
  return rows.map(toPoint);
}

/** The newest record (within `range` if given), or null. */
export async function readLastDeviceRecord(
  q: Queryable,
  companyId: number,
  deviceId: number,
  fields: readonly string[] | null,
  range?: DataRange,
): Promise<DataPointRecord | null> {
  const params: unknown[] = [deviceId, companyId, fields];
  let rangeSql = '';
  if (range) {
    params.push(range.from, range.to);
    rangeSql = 'AND created_at >= $4 AND created_at < $5';
  }
  const { rows } = await q.query<PointRow>(
    `SELECT created_at, ${pickFields('$3')} AS data, latitude, longitude, metalabel FROM device_data
      WHERE device_id = $1 AND company_id = $2 ${rangeSql}
      ORDER BY created_at DESC, message_id LIMIT 1`,
    params,
  );
  return rows[0] ? toPoint(rows[0]) : null;
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

function checkBucket(bucketSeconds: number): void {
  if (!Number.isInteger(bucketSeconds) || bucketSeconds <= 0) {
    throw new RangeError(`bucketSeconds must be a positive integer, got ${bucketSeconds}`);
  }
}

function stats(min: number | null, max: number | null, sum: number | null, count: number): FieldStats {
  return {
    min,
    max,
    avg: count > 0 && sum !== null ? sum / count : null,
    sum: count > 0 ? sum : null,
    count,
  };
}

export interface CurrentValuesRecord {
  data: Record<string, unknown>;
  fieldTimes: Record<string, string>;
  latitude: number | null;
  longitude: number | null;
  updatedAt: Date;
}

/** The latest value of every field (device_current), or null before the device's first data. */
export async function readCurrentValues(
  q: Queryable,
  companyId: number,
  deviceId: number,
): Promise<CurrentValuesRecord | null> {
  const { rows } = await q.query<{
    data: Record<string, unknown>;
    field_times: Record<string, string>;
    latitude: number | null;
    longitude: number | null;
    updated_at: Date;
  }>(
    `SELECT data, field_times, latitude, longitude, updated_at FROM device_current
      WHERE device_id = $1 AND company_id = $2`,
    [deviceId, companyId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    data: row.data ?? {},
    fieldTimes: row.field_times ?? {},
    latitude: row.latitude,
    longitude: row.longitude,
    updatedAt: row.updated_at,
  };
}
