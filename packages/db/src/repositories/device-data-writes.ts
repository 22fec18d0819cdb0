/**
 * Writes of measured data: the storage writer's data points (and with them, in one transaction, the
 * device state, log entries and downlink outcomes of its batch) and the rules worker's stored virtual
 * field values. Both run as the owner role and cross tenants by design: every row carries the company
 * the front door resolved. One multi-row statement per table per batch (`jsonb_to_recordset($1)`), so
 * a batch of a thousand uplinks costs a handful of round trips on PostgreSQL and on PGlite alike.
 */
import type { Db, Queryable } from '../db';
import {
  type DeviceCurrentRow,
  type DeviceStatusRow,
  updateDevicePositions,
  upsertDeviceStateRows,
} from './device-current';
import { type DeviceLogRow, insertDeviceLogRows } from './device-logs';
import { type DownlinkOutcomeRow, updateDownlinkOutcomes } from './downlinks';
import { jsonParam } from './json-param';

export interface DeviceDataRow {
  device_id: number;
  company_id: number;
  /** ISO time of measurement. */
  created_at: string;
  data: Record<string, unknown>;
  latitude: number | null;
  longitude: number | null;
  metalabel: string | null;
  fcnt: number | null;
  message_id: string | null;
}

/**
 * Stores data points; a repeated uplink (same device, time and message id) is a no-op. Rows of a
 * device that no longer exists are left out instead of failing the whole batch on the foreign key.
 * Returns the number of rows inserted.
 *
 * The rows travel as one JSON document with one-letter keys and without null fields (a missing key
 * reads as NULL): about half the bytes of the full column names, which the writer sends to PostgreSQL
 * and PostgreSQL parses for every uplink (tests/bench/README.md, "Ingest end to end").
 */
export async function insertDeviceDataRows(q: Queryable, rows: readonly DeviceDataRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const param = deviceDataParam(rows);
  await q.query(ensureSeriesSql('$1'), [param]);
  const result = await q.query(insertDeviceDataSql('$1'), [param]);
  return result.rowCount;
}

function deviceDataParam(rows: readonly DeviceDataRow[]): string {
  const compact = rows.map((row) => {
    const r: Record<string, unknown> = {
      i: row.device_id,
      c: row.company_id,
      t: row.created_at,
      d: row.data,
    };
    if (row.latitude !== null) r.a = row.latitude;
    if (row.longitude !== null) r.o = row.longitude;
    if (row.metalabel !== null) r.l = row.metalabel;
    if (row.fcnt !== null) r.f = row.fcnt;
    if (row.message_id !== null) r.m = row.message_id;
    return r;
  });
  return jsonParam(compact);
}

/**
 * Two statements on the same rows: the series of every device and company in the batch gains the number
 * and boolean fields it lacks (migration 0041: positions are only appended; a batch with nothing new
 * changes no series row), then the rows go in by those positions.
 */
const ensureSeriesSql = (param: string) =>
  `SELECT device_series_for(p.i, p.c, p.d)
     FROM (SELECT r.i, r.c, jsonb_object_agg(k.key, k.value) FILTER (WHERE k.key IS NOT NULL) AS d
             FROM jsonb_to_recordset(${param}::jsonb) AS r(i bigint, c bigint, d jsonb)
             LEFT JOIN LATERAL jsonb_each(r.d) AS k ON jsonb_typeof(k.value) IN ('number', 'boolean')
            GROUP BY r.i, r.c) p
     JOIN devices v ON v.id = p.i
     LEFT JOIN device_series s ON s.device_id = p.i AND s.company_id = p.c
    WHERE s.id IS NULL OR NOT s.fields @> ARRAY(SELECT jsonb_object_keys(coalesce(p.d, '{}')))`;

const insertDeviceDataSql = (param: string) =>
  `INSERT INTO device_readings (created_at, fcnt, series, message_id, narrow, wide, extra, meta)
     SELECT r.t, r.f, s.id, r.m, v.narrow, v.wide, v.extra,
            CASE WHEN r.a IS NOT NULL OR r.o IS NOT NULL OR r.l IS NOT NULL THEN
              jsonb_strip_nulls(jsonb_build_object('latitude', r.a, 'longitude', r.o, 'metalabel', r.l)) END
       FROM jsonb_to_recordset(${param}::jsonb) AS r(i bigint, c bigint, t timestamptz, d jsonb,
            a double precision, o double precision, l text, f bigint, m text)
       JOIN devices d ON d.id = r.i
       JOIN device_series s ON s.device_id = r.i AND s.company_id = r.c
       CROSS JOIN LATERAL device_reading_values(s.fields, r.d) AS v
      -- In index order: the joins may hand rows back reversed, and entries inserted after the last of
      -- their series keep the index's pages full (migration 0041).
      ORDER BY s.id, r.t
     ON CONFLICT (series, created_at, message_id) DO NOTHING`;

export interface DerivedDataRow {
  device_id: number;
  company_id: number;
  /** ISO time: the envelope's measuredAt, exactly as the storage writer stores it. */
  created_at: string;
  message_id: string;
  /** The uplink's data plus the stored virtual fields. */
  data: Record<string, unknown>;
  latitude: number | null;
  longitude: number | null;
  fcnt: number | null;
}

/**
 * Stored virtual field values land in the uplink's own data point. The storage writer and the rules
 * worker are separate consumer groups, so either may come first: the worker writes the whole point
 * (uplink data plus virtual values) and merges into an existing row. If the writer comes later, its
 * `ON CONFLICT DO NOTHING` finds the complete row; if it came first, the merge adds the virtual keys.
 * The devices are locked (KEY SHARE, as a foreign key check would) until the batch commits, so a device
 * deleted meanwhile takes these points with it (device_readings has no foreign keys, migrations 0013 and 0041).
 */
export async function upsertDerivedData(q: Queryable, rows: readonly DerivedDataRow[]): Promise<void> {
  if (rows.length === 0) return;
  const param = jsonParam(
    rows.map((row) => ({
      i: row.device_id,
      c: row.company_id,
      t: row.created_at,
      m: row.message_id,
      d: row.data,
      a: row.latitude,
      o: row.longitude,
      f: row.fcnt,
    })),
  );
  await q.query(ensureSeriesSql('$1'), [param]);
  // The merge rebuilds the stored row's data object, lays the new one over it and splits it again.
  await q.query(
    `INSERT INTO device_readings AS x (created_at, fcnt, series, message_id, narrow, wide, extra, meta)
     SELECT r.t, r.f, s.id, r.m, v.narrow, v.wide, v.extra,
            CASE WHEN r.a IS NOT NULL OR r.o IS NOT NULL THEN
              jsonb_strip_nulls(jsonb_build_object('latitude', r.a, 'longitude', r.o)) END
       FROM jsonb_to_recordset($1::jsonb) AS r(i bigint, c bigint, t timestamptz, d jsonb,
            a double precision, o double precision, f bigint, m text)
       JOIN devices d ON d.id = r.i AND d.company_id = r.c
       JOIN device_series s ON s.device_id = r.i AND s.company_id = r.c
       CROSS JOIN LATERAL device_reading_values(s.fields, r.d) AS v
        FOR KEY SHARE OF d
     ON CONFLICT (series, created_at, message_id) DO UPDATE
       SET (narrow, wide, extra) = (
         SELECT m.narrow, m.wide, m.extra
           FROM device_series s,
                device_reading_values(s.fields, device_reading_data(s.fields, x.narrow, x.wide, x.extra)
                                      || device_reading_data(s.fields, EXCLUDED.narrow, EXCLUDED.wide,
                                                             EXCLUDED.extra)) AS m
          WHERE s.id = x.series)`,
    [param],
  );
}

export interface IngestBatchRows {
  data: readonly DeviceDataRow[];
  current: readonly DeviceCurrentRow[];
  status: readonly DeviceStatusRow[];
  logs: readonly DeviceLogRow[];
  /** Rare (a network server's reports on downlinks): no statement when empty. */
  downlinks?: readonly DownlinkOutcomeRow[];
}

/**
 * The storage writer's batch in one transaction: reported positions, latest values with device status,
 * data points, log entries and downlink outcomes, one multi-row statement each. Returns the number of
 * data points inserted.
 *
 * The statements go through `tx.pipeline`: on PGlite (in its worker thread) they are sent together, so
 * PGlite does not wait for a round trip to the main thread, which is busy with the front door and the
 * rules worker, between statements while it holds its one connection; on PostgreSQL, where a round trip
 * on this machine costs well under 0.1 ms, one after another. Also measured and not kept: the four as
 * data-modifying CTEs of one statement (no BEGIN/COMMIT round trips), 10 to 25 % more time in the
 * database per batch than four statements on PostgreSQL and PGlite alike (writer-sql bench,
 * apps/ingest/README.md).
 */
export async function writeIngestBatch(db: Db, rows: IngestBatchRows): Promise<number> {
  return db.transaction(async (tx) => {
    // Positions first: they are compared with "last online" before this batch. Then the device state,
    // which locks the batch's device_current rows (or, for a device without one, its devices row
    // through the foreign key), so a deletion of one of these devices either committed before (the data
    // insert's join then leaves its points out) or waits for this commit and deletes the new points with
    // the device (device_readings has no foreign keys, migrations 0013 and 0041).
    const [, , stored] = await tx.pipeline([
      () => updateDevicePositions(tx, rows.status),
      () => upsertDeviceStateRows(tx, rows.current, rows.status),
      () => insertDeviceDataRows(tx, rows.data),
      () => insertDeviceLogRows(tx, rows.logs),
      () => updateDownlinkOutcomes(tx, rows.downlinks ?? []),
    ]);
    return stored;
  });
}
