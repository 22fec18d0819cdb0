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

/** The data object of a reading (migration 0041), rebuilt from its value arrays. */
const READING_DATA = 'device_reading_data(s.fields, r.narrow, r.wide, r.extra)';

/** Keeps only `fields` of a data object (SQL side, so unrequested fields never leave the database). */
function pickFields(fieldsParam: string): string {
  return `CASE WHEN ${fieldsParam}::text[] IS NULL THEN ${READING_DATA}
    ELSE (SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb) FROM jsonb_each(${READING_DATA})
           WHERE key = ANY(${fieldsParam}::text[])) END`;
}

/** The reading's position and label (latitude, longitude, metalabel: `meta`, migration 0041). */
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

/** Rows of a device in a range (the unique index (series, created_at DESC, message_id) serves it). */
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
    `SELECT r.created_at, ${pickFields('$5')} AS data, ${READING_META}
       FROM ${SERIES_OF.replace(' WHERE ', ' JOIN device_readings r ON r.series = s.id WHERE ')}
        AND r.created_at >= $3 AND r.created_at < $4
      ORDER BY r.created_at, r.message_id DESC`,
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
    rangeSql = 'AND r.created_at >= $4 AND r.created_at < $5';
  }
  const { rows } = await q.query<PointRow>(
    `SELECT r.created_at, ${pickFields('$3')} AS data, ${READING_META}
       FROM device_series s
       JOIN LATERAL (SELECT * FROM device_readings r WHERE r.series = s.id ${rangeSql}
                      ORDER BY r.created_at DESC, r.message_id LIMIT 1) r ON true
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
