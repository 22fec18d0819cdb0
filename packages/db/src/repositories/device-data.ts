/**
 * Reads of measured data for the console and the API: raw points, the newest record, downsampled buckets
 * for charts, and the latest values per field. Data rows keep the company that owned the device when they
 * were recorded, so every read filters by the acting company as well as the device.
 */
import type { Queryable } from '../db';
import { type DataRange, SERIES_OF } from './device-data-buckets';

export interface DataPointRecord {
  createdAt: Date;
  /** Only the requested fields (all fields when none were requested). */
  data: Record<string, unknown>;
  latitude: number | null;
  longitude: number | null;
  metalabel: string | null;
}

/** The data object of a reading (migration 0043), rebuilt from its value arrays. */
const READING_DATA = 'device_reading_data(s.fields, r.narrow, r.wide, r.extra)';

/** Keeps only `fields` of a data object (SQL side, so unrequested fields never leave the database). */
function pickFields(fieldsParam: string): string {
  return `CASE WHEN ${fieldsParam}::text[] IS NULL THEN ${READING_DATA}
    ELSE (SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb) FROM jsonb_each(${READING_DATA})
           WHERE key = ANY(${fieldsParam}::text[])) END`;
}

/** The reading's position and label (latitude, longitude, metalabel: `meta`, migration 0043). */
const READING_META = `(r.meta->>'latitude')::float8 AS latitude, (r.meta->>'longitude')::float8 AS longitude,
  r.meta->>'metalabel' AS metalabel`;

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

/** Rows of a device in a range (the index (series, created_at) serves it). */
export async function countDeviceData(
  q: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM device_readings
      WHERE series = (SELECT s.id FROM ${SERIES_OF}) AND created_at >= $3 AND created_at < $4`,
    [deviceId, companyId, range.from, range.to],
  );
  return rows[0]?.n ?? 0;
}

/**
 * `countDeviceData` for a device of the company, null when the company has no such device: the existence
 * check and the count in one statement (one wait for PGlite's connection instead of two).
 */
export async function countDeviceDataOfDevice(
  q: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
): Promise<number | null> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT (SELECT count(*)::int FROM device_readings
              WHERE series = (SELECT s.id FROM ${SERIES_OF}) AND created_at >= $3 AND created_at < $4) AS n
       FROM devices WHERE company_id = $2 AND id = $1`,
    [deviceId, companyId, range.from, range.to],
  );
  return rows[0]?.n ?? null;
}

/** A range's points, oldest first ($1 device, $2 company, $3-$4 the range, $5 the fields or null). */
const RANGE_POINTS_SQL = `SELECT r.created_at, ${pickFields('$5')} AS data, ${READING_META}
   FROM ${SERIES_OF.replace(' WHERE ', ' JOIN device_readings r ON r.series = s.id WHERE ')}
    AND r.created_at >= $3 AND r.created_at < $4
  ORDER BY r.created_at`;

/**
 * The points of a range, oldest first; `fields` null = every field. Both reads below order exactly like
 * the index (series, created_at), read forwards or backwards, so no sort is needed and the newest record
 * is a single index entry.
 */
export async function readDeviceData(
  q: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
  fields: readonly string[] | null,
): Promise<DataPointRecord[]> {
  const { rows } = await q.query<PointRow>(RANGE_POINTS_SQL, [
    deviceId,
    companyId,
    range.from,
    range.to,
    fields,
  ]);
  return rows.map(toPoint);
}

/**
 * The points of a range as `readDeviceData` reads them, if there are at most `limit` and the device is the
 * company's now; else null (more points, or no such device: `countDeviceDataOfDevice` tells which). One
 * statement where a count and a read were two: a chart of a short range, the common poll (issue #29).
 */
export async function readDeviceDataUpTo(
  q: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
  fields: readonly string[] | null,
  limit: number,
): Promise<DataPointRecord[] | null> {
  const { rows } = await q.query<PointRow & { device: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM devices WHERE company_id = $2 AND id = $1) AS device, p.*
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (${RANGE_POINTS_SQL} LIMIT $6) p ON true`,
    [deviceId, companyId, range.from, range.to, fields, limit + 1],
  );
  if (!rows[0]?.device || rows.length > limit) return null;
  return rows[0].created_at === null ? [] : rows.map(toPoint);
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
    rangeSql = 'AND r.created_at >= $4 AND r.created_at < $5';
  }
  const { rows } = await q.query<PointRow>(
    `SELECT r.created_at, ${pickFields('$3')} AS data, ${READING_META}
       FROM device_series s
       JOIN LATERAL (SELECT * FROM device_readings r WHERE r.series = s.id ${rangeSql}
                      ORDER BY r.created_at DESC LIMIT 1) r ON true
      WHERE s.device_id = $1 AND s.company_id = $2`,
    params,
  );
  return rows[0] ? toPoint(rows[0]) : null;
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
