/** Sensor checks of a device (migrations 0003, 0010), scoped by the acting company. */
import type { Queryable } from '../db';

export type SensorCheckKindColumn = 'no_data' | 'implausible_value' | 'battery_low';

export interface SensorCheckValues {
  kind: SensorCheckKindColumn;
  dataField: string | null;
  maxSilenceSeconds: number | null;
  /** implausible_value: lower bound; battery_low: the level below which the alarm is raised. */
  minValue: number | null;
  maxValue: number | null;
  isActive: boolean;
}

export interface SensorCheckRecord extends SensorCheckValues {
  id: number;
  deviceId: number;
  lastCheckedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: number;
  device_id: number;
  kind: SensorCheckKindColumn;
  data_field: string | null;
  max_silence_seconds: number | null;
  min_value: number | null;
  max_value: number | null;
  is_active: boolean;
  last_checked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id::int AS id, device_id::int AS device_id, kind, data_field, max_silence_seconds, min_value,
  max_value, is_active, last_checked_at, created_at, updated_at`;

function toRecord(row: Row): SensorCheckRecord {
  return {
    id: row.id,
    deviceId: row.device_id,
    kind: row.kind,
    dataField: row.data_field,
    maxSilenceSeconds: row.max_silence_seconds,
    minValue: row.min_value,
    maxValue: row.max_value,
    isActive: row.is_active,
    lastCheckedAt: row.last_checked_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function params(v: SensorCheckValues): unknown[] {
  return [v.kind, v.dataField, v.maxSilenceSeconds, v.minValue, v.maxValue, v.isActive];
}

export async function listSensorChecks(
  q: Queryable,
  companyId: number,
  deviceId: number,
): Promise<SensorCheckRecord[]> {
  const { rows } = await q.query<Row>(
    `SELECT ${COLUMNS} FROM sensor_checks WHERE company_id = $1 AND device_id = $2 ORDER BY id`,
    [companyId, deviceId],
  );
  return rows.map(toRecord);
}

export async function insertSensorCheck(
  q: Queryable,
  companyId: number,
  deviceId: number,
  values: SensorCheckValues,
): Promise<SensorCheckRecord> {
  const { rows } = await q.query<Row>(
    `INSERT INTO sensor_checks (company_id, device_id, kind, data_field, max_silence_seconds, min_value, max_value,
       is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [companyId, deviceId, ...params(values)],
  );
  return toRecord(rows[0]!);
}

/**
 * Updates a check of the device; a changed kind, field or bound resets its state. Null when the check is
 * not the device's; `conditionChanged` tells the caller to clear the check's open alarm.
 */
export async function updateSensorCheck(
  q: Queryable,
  companyId: number,
  deviceId: number,
  id: number,
  values: SensorCheckValues,
): Promise<{ record: SensorCheckRecord; conditionChanged: boolean } | null> {
  const { rows } = await q.query<Row & { changed: boolean }>(
    `WITH old AS (
       SELECT id, (kind, data_field, max_silence_seconds, min_value, max_value) IS DISTINCT FROM
                  ($4::text, $5::text, $6::int, $7::float8, $8::float8) AS changed
         FROM sensor_checks WHERE company_id = $1 AND device_id = $2 AND id = $3 FOR UPDATE)
     UPDATE sensor_checks s SET kind = $4, data_field = $5, max_silence_seconds = $6, min_value = $7,
       max_value = $8, is_active = $9, updated_at = now(),
       state = CASE WHEN old.changed THEN '{}'::jsonb ELSE s.state END
       FROM old WHERE s.id = old.id AND s.company_id = $1
     RETURNING s.id::int AS id, s.device_id::int AS device_id, s.kind, s.data_field, s.max_silence_seconds,
       s.min_value, s.max_value, s.is_active, s.last_checked_at, s.created_at, s.updated_at, old.changed AS changed`,
    [companyId, deviceId, id, ...params(values)],
  );
  const row = rows[0];
  return row ? { record: toRecord(row), conditionChanged: row.changed } : null;
}

export async function deleteSensorCheck(
  q: Queryable,
  companyId: number,
  deviceId: number,
  id: number,
): Promise<boolean> {
  const { rowCount } = await q.query(
    'DELETE FROM sensor_checks WHERE company_id = $1 AND device_id = $2 AND id = $3',
    [companyId, deviceId, id],
  );
  return rowCount > 0;
}

/** Renames a data field in the device's checks (a renamed virtual field keeps its checks). */
export async function renameSensorCheckDataField(
  q: Queryable,
  companyId: number,
  deviceId: number,
  from: string,
  to: string,
): Promise<void> {
  await q.query(
    'UPDATE sensor_checks SET data_field = $4, updated_at = now() WHERE company_id = $1 AND device_id = $2 AND data_field = $3',
    [companyId, deviceId, from, to],
  );
}
