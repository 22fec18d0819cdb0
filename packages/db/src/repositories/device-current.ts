/**
 * device_current (migration 0015): each device's latest values per field and its status (last online,
 * battery, signal, mobile data volume), merged from the storage writer's batches, and the position the
 * devices row keeps. One multi-row statement per batch, fed by `jsonb_to_recordset($1)`.
 */
import type { Queryable } from '../db';
import { jsonParam } from './json-param';

export interface DeviceCurrentRow {
  device_id: number;
  company_id: number;
  /** Newest value per field within the batch. */
  data: Record<string, unknown>;
  /** ISO time per field of `data`; key `geo` for the position. */
  field_times: Record<string, string>;
  latitude: number | null;
  longitude: number | null;
  /** ISO time of the newest value. */
  updated_at: string;
}

/** A device status value with the time it was measured. */
export interface TimedValue {
  value: number;
  at: string;
}

export interface DeviceStatusRow {
  device_id: number;
  company_id: number;
  /** Newest measurement time in the batch: becomes last_online_at unless that is newer already. */
  last_online_at: string;
  battery_level?: TimedValue;
  battery_voltage?: TimedValue;
  signal_strength?: TimedValue;
  rssi?: TimedValue;
  snr?: TimedValue;
  mobile_data_volume?: TimedValue;
  /** A position the device reported: written to the devices row (its location). */
  latitude?: TimedValue;
  longitude?: TimedValue;
}

/** Status columns of device_current (migration 0015) with their record types. */
const STATUS_COLUMNS = [
  ['battery_level', 'double precision'],
  ['battery_voltage', 'double precision'],
  ['signal_strength', 'smallint'],
  ['rssi', 'integer'],
  ['snr', 'double precision'],
  ['mobile_data_volume', 'bigint'],
] as const;

/**
 * Every status column of device_current (migration 0015), last_online_at first: the ones above, the
 * online flag and the last online time (what readers and a reassignment take from the row).
 */
export const DEVICE_STATUS_COLUMNS: readonly string[] = [
  'last_online_at',
  'is_active',
  ...STATUS_COLUMNS.map(([column]) => column),
];

/**
 * Merges one coalesced row per device into device_current: its latest values and its status (last
 * online, battery, signal, mobile data volume), in one row update per device. A field takes the
 * incoming value only when its time is not older than the stored one, so an old uplink arriving late
 * never moves a field back in time; a status value is taken only when it was measured no earlier than
 * the device was last online before this batch. `current` has a row per device with uplinks, `status`
 * one per device with uplinks or other envelopes (a failed decode says the device was online); a device
 * with status alone gets a row without values. Rows whose device is gone or belongs to another company
 * by now are left out.
 *
 * Three paths in one statement (see deviceStateCtes). The common case, a device whose every incoming
 * field is at least as new as the newest stored value (`updated_at`), is a plain in-place UPDATE that
 * merges the objects; the other rows (late uplinks) take an UPDATE with the per-field comparison, which
 * costs about twice as much per row (writer-sql bench), and devices without a row an INSERT.
 */
export async function upsertDeviceStateRows(
  q: Queryable,
  current: readonly DeviceCurrentRow[],
  status: readonly DeviceStatusRow[] = [],
): Promise<void> {
  if (current.length === 0 && status.length === 0) return;
  const ctes = deviceStateCtes('$1');
  await q.query(`WITH ${ctes.join(',\n')} SELECT 1`, [deviceStateParam(current, status)]);
}

/** ISO times as `toISOString()` writes them order as text; others are parsed. */
const earlier = (a: string, b: string) =>
  a.length === 24 && b.length === 24 ? a < b : Date.parse(a) < Date.parse(b);

/**
 * One row per device: the latest values with `oldest`, the earliest of their field times, and the
 * status columns flattened (`<column>`, `<column>_at`; the time is left out when it is the row's last
 * online time, as it is for a device with one uplink in the batch: the SQL reads a missing one as that).
 * A device with status alone has no values (`updated_at` null) and `oldest` = its last online time.
 */
function deviceStateParam(current: readonly DeviceCurrentRow[], status: readonly DeviceStatusRow[]): string {
  // Plain loops and objects built key by key: this runs for every device of every write (3.5 us per
  // envelope with spreads and Object.entries, writer's JS on the bench's 20,000 devices).
  const rows = new Map<number, Record<string, unknown>>();
  for (const row of current) {
    let oldest = row.updated_at;
    const times = row.field_times;
    for (const field in times) {
      const at = times[field]!;
      if (earlier(at, oldest)) oldest = at;
    }
    rows.set(row.device_id, {
      device_id: row.device_id,
      company_id: row.company_id,
      data: row.data,
      field_times: times,
      latitude: row.latitude,
      longitude: row.longitude,
      updated_at: row.updated_at,
      oldest,
    });
  }
  for (const s of status) {
    let row = rows.get(s.device_id);
    if (!row) {
      row = {
        device_id: s.device_id,
        company_id: s.company_id,
        data: {},
        field_times: {},
        oldest: s.last_online_at,
      };
      rows.set(s.device_id, row);
    }
    row.last_online_at = s.last_online_at;
    for (const [column, timeKey] of STATUS_KEYS) {
      const timed = s[column];
      if (timed === undefined) continue;
      row[column] = timed.value;
      if (timed.at !== s.last_online_at) row[timeKey] = timed.at;
    }
  }
  return jsonParam([...rows.values()]);
}

/** Each status column with the key of its time in the parameter. */
const STATUS_KEYS = STATUS_COLUMNS.map(([column]) => [column, `${column}_at`] as const);

// Typed record columns (<column>, <column>_at) rather than a nested jsonb: no per-row jsonb
// extraction and cast for six columns.
const STATUS_RECORD_COLUMNS = STATUS_COLUMNS.map(
  ([column, type]) => `${column} ${type}, ${column}_at timestamptz`,
).join(', ');
const statusSets = (row: string) =>
  STATUS_COLUMNS.map(
    ([column]) =>
      `${column} = CASE WHEN ${row}.${column} IS NOT NULL
         AND COALESCE(${row}.${column}_at, ${row}.last_online_at) >= COALESCE(c.last_online_at, '-infinity')
         THEN ${row}.${column} ELSE c.${column} END`,
  ).join(',\n         ');

/**
 * Named CTEs that merge the rows of `param` into device_current:
 * - state_fast: devices whose stored values are all no newer than the incoming row's oldest field time;
 *   device_current.updated_at is the newest of a row's field times (this statement keeps it so, and
 *   every other writer of device_current writes one time for all fields), so every incoming field wins
 *   and the objects merge as they are. It re-checks its condition on a row changed by a concurrent
 *   write (READ COMMITTED); a row it then leaves is merged by the next batch that has the device.
 * - state_late: the other existing rows, field by field.
 * - state_new: devices without a row. A row another writer inserts at the same moment is merged
 *   by ON CONFLICT: the values field by field, the status as a whole when it is at least as new.
 * Every path locks what deleting the device has to wait for (the device_current row, or on insert the
 * devices row through the foreign key), so a deletion at the same moment either committed before (the
 * row is not found and the batch's points are left out too) or deletes what this transaction wrote.
 */
function deviceStateCtes(param: string): string[] {
  const fieldMerge = (target: string, incoming: string) => `
       data = ${target}.data || COALESCE((
         SELECT jsonb_object_agg(f.key, ${incoming}.data -> f.key)
           FROM jsonb_each_text(${incoming}.field_times) AS f(key, at)
          WHERE ${incoming}.data ? f.key
            AND (${target}.field_times ->> f.key IS NULL OR (${target}.field_times ->> f.key)::timestamptz <= f.at::timestamptz)
       ), '{}'::jsonb),
       field_times = ${target}.field_times || COALESCE((
         SELECT jsonb_object_agg(f.key, f.at)
           FROM jsonb_each_text(${incoming}.field_times) AS f(key, at)
          WHERE ${target}.field_times ->> f.key IS NULL OR (${target}.field_times ->> f.key)::timestamptz <= f.at::timestamptz
       ), '{}'::jsonb),
       latitude = CASE WHEN ${incoming}.latitude IS NOT NULL AND (${target}.field_times ->> 'geo' IS NULL
                    OR (${target}.field_times ->> 'geo')::timestamptz <= (${incoming}.field_times ->> 'geo')::timestamptz)
                  THEN ${incoming}.latitude ELSE ${target}.latitude END,
       longitude = CASE WHEN ${incoming}.longitude IS NOT NULL AND (${target}.field_times ->> 'geo' IS NULL
                    OR (${target}.field_times ->> 'geo')::timestamptz <= (${incoming}.field_times ->> 'geo')::timestamptz)
                  THEN ${incoming}.longitude ELSE ${target}.longitude END`;
  return [
    `state_rows AS MATERIALIZED (
       SELECT * FROM jsonb_to_recordset(${param}::jsonb) AS r(device_id bigint, company_id bigint, data jsonb,
              field_times jsonb, latitude double precision, longitude double precision, updated_at timestamptz,
              oldest timestamptz, last_online_at timestamptz, ${STATUS_RECORD_COLUMNS}))`,
    `state_fast AS (
       UPDATE device_current c SET
         data = c.data || r.data,
         field_times = c.field_times || r.field_times,
         latitude = COALESCE(r.latitude, c.latitude),
         longitude = COALESCE(r.longitude, c.longitude),
         updated_at = GREATEST(c.updated_at, r.updated_at),
         is_active = true,
         last_online_at = GREATEST(c.last_online_at, r.last_online_at),
         ${statusSets('r')}
       FROM state_rows r
       WHERE c.device_id = r.device_id AND c.company_id = r.company_id AND c.updated_at <= r.oldest
       RETURNING c.device_id)`,
    `state_late AS (
       UPDATE device_current c SET ${fieldMerge('c', 'r')},
         updated_at = GREATEST(c.updated_at, r.updated_at),
         is_active = true,
         last_online_at = GREATEST(c.last_online_at, r.last_online_at),
         ${statusSets('r')}
       FROM state_rows r
       WHERE c.device_id = r.device_id AND c.company_id = r.company_id
         AND r.device_id NOT IN (SELECT device_id FROM state_fast)
       RETURNING c.device_id)`,
    `state_new AS (
     INSERT INTO device_current AS c (device_id, company_id, data, field_times, latitude, longitude, updated_at,
                                      is_active, last_online_at, ${STATUS_COLUMNS.map(([column]) => column).join(', ')})
     SELECT r.device_id, r.company_id, r.data, r.field_times, r.latitude, r.longitude,
            COALESCE(r.updated_at, r.last_online_at), true, r.last_online_at,
            ${STATUS_COLUMNS.map(([column]) => `r.${column}`).join(', ')}
       FROM state_rows r
       JOIN devices d ON d.id = r.device_id AND d.company_id = r.company_id
      WHERE r.device_id NOT IN (SELECT device_id FROM state_fast)
        AND r.device_id NOT IN (SELECT device_id FROM state_late)
     ON CONFLICT (device_id) DO UPDATE SET ${fieldMerge('c', 'EXCLUDED')},
       updated_at = GREATEST(c.updated_at,
                             CASE WHEN EXCLUDED.field_times = '{}'::jsonb THEN NULL ELSE EXCLUDED.updated_at END),
       is_active = true,
       last_online_at = GREATEST(c.last_online_at, EXCLUDED.last_online_at),
       ${STATUS_COLUMNS.map(
         ([column]) =>
           `${column} = CASE WHEN EXCLUDED.last_online_at >= COALESCE(c.last_online_at, '-infinity') AND EXCLUDED.${column} IS NOT NULL THEN EXCLUDED.${column} ELSE c.${column} END`,
       ).join(',\n       ')})`,
  ];
}

/**
 * What ingestion still writes to the devices row: the location of a device that reported a position
 * measured no earlier than it was last online. Runs before upsertDeviceStateRows in the same
 * transaction, so "last online" is the time before this batch. Only devices with a position are
 * touched; without any, no statement is sent.
 */
export async function updateDevicePositions(q: Queryable, rows: readonly DeviceStatusRow[]): Promise<void> {
  const positions = rows.flatMap((r) =>
    r.latitude !== undefined && r.longitude !== undefined
      ? [{ i: r.device_id, c: r.company_id, a: r.latitude.value, o: r.longitude.value, t: r.latitude.at }]
      : [],
  );
  if (positions.length === 0) return;
  await q.query(updateDevicePositionsSql, [jsonParam(positions)]);
}

const updateDevicePositionsSql = `UPDATE devices d SET latitude = p.a, longitude = p.o
     FROM jsonb_to_recordset($1::jsonb) AS p(i bigint, c bigint, a double precision, o double precision, t timestamptz)
     WHERE d.id = p.i AND d.company_id = p.c
       AND p.t >= COALESCE((SELECT s.last_online_at FROM device_current s
                             WHERE s.device_id = d.id AND s.company_id = d.company_id), '-infinity')`;
