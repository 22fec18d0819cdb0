/**
 * Writes of measured data: the storage writer's data points (and with them, in one transaction, the
 * device state, log entries and downlink outcomes of its batch) and the rules worker's stored virtual
 * field values. Both run as the owner role and cross tenants by design: every row carries the company
 * the front door resolved. One multi-row statement per table per batch (`jsonb_to_recordset($1)`), so
 * a batch of a thousand uplinks costs a handful of round trips on PostgreSQL and on PGlite alike.
 */
import { hash } from 'node:crypto';
import type { Db, Queryable } from '../db';
import {
  type DeviceCurrentRow,
  type DeviceStatusRow,
  updateDevicePositions,
  upsertDeviceStateRows,
} from './device-current';
import { type DeviceLogRow, insertDeviceLogRows } from './device-logs';
import { isChartable, readingMeta, splitReadingValues } from './device-reading-values';
import {
  type DeviceSeriesCache,
  type SeriesFields,
  seriesCacheOf,
  seriesFields,
  seriesKey,
} from './device-series-cache';
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
 * A message id as stored (device_readings.message_hash, migration 0043): its MD5's first 32 bits, as
 * device_message_hash computes them. `hash` (one call, hex) takes a third of createHash's time per uplink.
 */
export function messageHash(id: string): number {
  // PostgreSQL text holds no NUL: the id is hashed as the database would have stored it (json-param.ts).
  const text = id.includes('\u0000') ? id.replaceAll('\u0000', '') : id;
  return Number.parseInt(hash('md5', text).slice(0, 8), 16) | 0;
}

/** Advisory lock class of the writers' deduplication ('dedu', migration 0043). */
const DEDUP_LOCK_CLASS = 1684366453;

/**
 * The deduplication lock of every device in $1 (bigint[]), in device order, held until commit: a statement
 * of its own, so the insert after it sees what a writer that held one of them committed (migration 0043).
 */
const LOCK_DEVICES_SQL = `SELECT count(pg_advisory_xact_lock(${DEDUP_LOCK_CLASS}, (x.i % 2147483647)::int))
   FROM (SELECT DISTINCT i FROM unnest($1::bigint[]) AS i ORDER BY 1) x`;

/**
 * Takes the deduplication lock of the rows' devices (LOCK_DEVICES_SQL) for the rest of the transaction.
 * The storage writer takes it before anything else of its batch, as the rules worker does before its
 * device state: both then wait for one another in the same order, never in a cycle.
 */
async function lockDeviceData(q: Queryable, rows: readonly { device_id: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(LOCK_DEVICES_SQL, [[...new Set(rows.map((row) => row.device_id))]]);
}

export interface InsertDeviceDataOptions {
  /** The caller holds the devices' deduplication locks already (writeIngestBatch). */
  locked?: boolean;
  /** Field lists known committed; without it every series is read (seeders, tests). */
  cache?: DeviceSeriesCache;
  /** Receives the lists this call read or extended, for `cache.remember` once the transaction commits. */
  learned?: Map<string, SeriesFields>;
}

/**
 * Stores data points; a repeated uplink (same device, time and message id) is a no-op. Rows of a
 * device that no longer exists are left out instead of failing the whole batch.
 * Returns the number of rows inserted.
 *
 * The values are split here, not in SQL (device-reading-values.ts), by the field lists of the rows'
 * series: cached, else read (and extended by new fields) in one statement before the insert. The rows
 * then travel as one array per column (`unnest`), which PostgreSQL takes as they are.
 */
export async function insertDeviceDataRows(
  q: Queryable,
  rows: readonly DeviceDataRow[],
  options: InsertDeviceDataOptions = {},
): Promise<number> {
  if (rows.length === 0) return 0;
  if (!options.locked) await lockDeviceData(q, rows);
  const learned = options.learned ?? new Map<string, SeriesFields>();
  const missing = missingSeries(rows, options.cache);
  if (missing.size > 0) await readSeries(q, missing, learned);
  const columns = readingColumns(rows, (key) => learned.get(key) ?? options.cache?.get(key));
  if (columns.series.length === 0) return 0;
  // Array literals built here: pg's own serialiser quotes and escapes every element with two regular
  // expressions, a tenth of the writer's time per uplink at ten columns.
  const result = await q.query(INSERT_READINGS_SQL, [
    plainArray(columns.device),
    plainArray(columns.company),
    plainArray(columns.series),
    plainArray(columns.time),
    plainArray(columns.fcnt),
    plainArray(columns.hash),
    quotedArray(columns.narrow),
    quotedArray(columns.wide),
    quotedArray(columns.extra),
    quotedArray(columns.meta),
  ]);
  return result.rowCount;
}

/** An array literal of elements that need no quotes (numbers, ISO times); null is NULL. */
function plainArray(values: readonly (number | string | null)[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    text += (i === 0 ? '' : ',') + (v === null || v === undefined ? 'NULL' : v);
  }
  return `${text}}`;
}

/** An array literal of text elements (array literals, JSON), each quoted, escaped where it must be. */
function quotedArray(values: readonly (string | null)[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    text += i === 0 ? '' : ',';
    if (v === null || v === undefined) text += 'NULL';
    else if (v.includes('"') || v.includes('\\')) text += `"${v.replace(/[\\"]/g, '\\$&')}"`;
    else text += `"${v}"`;
  }
  return `${text}}`;
}

type SeriesRow = Pick<DeviceDataRow, 'device_id' | 'company_id' | 'data'>;
type MissingSeries = Map<string, { i: number; c: number; k: Set<string> }>;

/** The rows' series that `cache` does not know or whose list lacks a field of theirs, with those fields. */
function missingSeries(rows: readonly SeriesRow[], cache: DeviceSeriesCache | undefined): MissingSeries {
  const missing: MissingSeries = new Map();
  const entry = (row: SeriesRow, key: string) => {
    let need = missing.get(key);
    if (!need) {
      need = { i: row.device_id, c: row.company_id, k: new Set() };
      missing.set(key, need);
    }
    return need;
  };
  for (const row of rows) {
    const key = seriesKey(row.device_id, row.company_id);
    const known = cache?.get(key);
    if (!known) entry(row, key);
    for (const field of Object.keys(row.data)) {
      if (isChartable(row.data[field]) && !known?.positions.has(field)) entry(row, key).k.add(field);
    }
  }
  return missing;
}

/**
 * Reads the missing series into `learned`, appending their missing fields (device_series_with). Devices
 * that no longer exist return none.
 */
async function readSeries(
  q: Queryable,
  missing: MissingSeries,
  learned: Map<string, SeriesFields>,
): Promise<void> {
  const { rows: found } = await q.query<{ i: number; c: number; id: number; fields: string[] }>(
    SERIES_WITH_SQL,
    [jsonParam([...missing.values()].map((m) => ({ i: m.i, c: m.c, k: [...m.k].sort() })))],
  );
  for (const s of found) learned.set(seriesKey(Number(s.i), Number(s.c)), seriesFields(s.id, s.fields));
}

/**
 * The series of each device and company in $1 ([{i, c, k: [fields]}]) with its fields appended, in device
 * order (the writers' order of locks). Only devices that exist get one.
 */
const SERIES_WITH_SQL = `SELECT p.i, p.c, s.id, s.fields
   FROM (SELECT r.i, r.c, r.k FROM jsonb_to_recordset($1::jsonb) AS r(i bigint, c bigint, k jsonb)
           JOIN devices d ON d.id = r.i ORDER BY r.i, r.c) p
   CROSS JOIN LATERAL device_series_with(p.i, p.c, ARRAY(SELECT jsonb_array_elements_text(p.k))) AS s`;

interface ReadingColumns {
  device: number[];
  company: number[];
  series: number[];
  time: string[];
  fcnt: (number | null)[];
  hash: (number | null)[];
  narrow: (string | null)[];
  wide: (string | null)[];
  extra: (string | null)[];
  meta: (string | null)[];
}

/** The rows with a known series, one array per column; the others are left out. */
function readingColumns(
  rows: readonly DeviceDataRow[],
  seriesOf: (key: string) => SeriesFields | undefined,
): ReadingColumns {
  const c: ReadingColumns = {
    device: [],
    company: [],
    series: [],
    time: [],
    fcnt: [],
    hash: [],
    narrow: [],
    wide: [],
    extra: [],
    meta: [],
  };
  for (const row of rows) {
    const series = seriesOf(seriesKey(row.device_id, row.company_id));
    if (!series) continue;
    const values = splitReadingValues(series.positions, row.data);
    c.device.push(row.device_id);
    c.company.push(row.company_id);
    c.series.push(series.id);
    c.time.push(row.created_at);
    c.fcnt.push(row.fcnt);
    c.hash.push(row.message_id === null ? null : messageHash(row.message_id));
    c.narrow.push(values.narrow);
    c.wide.push(values.wide);
    c.extra.push(values.extra);
    c.meta.push(readingMeta(row.latitude, row.longitude, row.metalabel));
  }
  return c;
}

/**
 * The rows not stored yet: the first of each (series, time, message hash) in the batch, and only where
 * device_readings has none (under the deduplication lock; rows without a message id always). Each row's
 * series is joined by id, device and company, so a cached series deleted meanwhile (with its device or
 * company) takes its rows with it. Inserted in index order: entries after the last of their series keep
 * the index's pages full (migration 0043).
 */
const INSERT_READINGS_SQL = `INSERT INTO device_readings (created_at, fcnt, series, message_hash, narrow, wide, extra, meta)
  SELECT r.t, r.f, r.s, r.h, r.nw::real[], r.wd::double precision[], r.x::jsonb, r.m::jsonb
    FROM (SELECT DISTINCT ON (r.s, r.t, r.h, CASE WHEN r.h IS NULL THEN r.n END) r.*
            FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::timestamptz[], $5::bigint[], $6::int[],
                        $7::text[], $8::text[], $9::text[], $10::text[])
                 WITH ORDINALITY AS r(i, c, s, t, f, h, nw, wd, x, m, n)
           ORDER BY r.s, r.t, r.h, CASE WHEN r.h IS NULL THEN r.n END, r.n) r
    JOIN device_series s ON s.id = r.s AND s.device_id = r.i AND s.company_id = r.c
   WHERE r.h IS NULL OR NOT EXISTS (SELECT 1 FROM device_readings x
                                     WHERE x.series = r.s AND x.created_at = r.t AND x.message_hash = r.h)
   ORDER BY r.s, r.t`;

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
 * deduplication finds the complete row; if it came first, the merge adds the virtual keys (both under the
 * devices' deduplication lock, LOCK_DEVICES_SQL).
 * The devices are locked (KEY SHARE, as a foreign key check would) until the batch commits, so a device
 * deleted meanwhile takes these points with it (device_readings has no foreign keys, migrations 0013 and 0043).
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
  await lockDeviceData(q, rows);
  await readSeries(q, missingSeries(rows, undefined), new Map());
  // The merge rebuilds the stored row's data object, lays the new one over it and splits it again; the
  // rows not stored yet go in after it.
  await q.query(
    `UPDATE device_readings AS x SET (narrow, wide, extra) = (
       SELECT m.narrow, m.wide, m.extra
         FROM device_reading_values(r.fields, device_reading_data(r.fields, x.narrow, x.wide, x.extra) || r.d) AS m)
       FROM (${derivedSql('$1')}) r
      WHERE x.series = r.series AND x.created_at = r.t AND x.message_hash = r.h`,
    [param],
  );
  await q.query(
    `INSERT INTO device_readings (created_at, fcnt, series, message_hash, narrow, wide, extra, meta)
     SELECT r.t, r.f, r.series, r.h, v.narrow, v.wide, v.extra,
            CASE WHEN r.a IS NOT NULL OR r.o IS NOT NULL THEN
              jsonb_strip_nulls(jsonb_build_object('latitude', r.a, 'longitude', r.o)) END
       FROM (${derivedSql('$1')}) r
       CROSS JOIN LATERAL device_reading_values(r.fields, r.d) AS v
      WHERE NOT EXISTS (SELECT 1 FROM device_readings x
                         WHERE x.series = r.series AND x.created_at = r.t AND x.message_hash = r.h)
      ORDER BY r.series, r.t`,
    [param],
  );
}

/** The rules worker's rows with their series, of devices that still belong to their company. */
const derivedSql = (param: string) =>
  `SELECT DISTINCT ON (r.series, r.t, r.m) r.*, device_message_hash(r.m) AS h
     FROM (SELECT r.*, s.id AS series, s.fields
             FROM jsonb_to_recordset(${param}::jsonb) AS r(i bigint, c bigint, t timestamptz, d jsonb,
                  a double precision, o double precision, f bigint, m text)
             JOIN devices d ON d.id = r.i AND d.company_id = r.c
             JOIN device_series s ON s.device_id = r.i AND s.company_id = r.c
              FOR KEY SHARE OF d) r
    ORDER BY r.series, r.t, r.m`;

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
  // Field lists this batch read or extended count only once it committed (device-series-cache.ts).
  const cache = seriesCacheOf(db);
  const learned = new Map<string, SeriesFields>();
  const stored = await db.transaction(async (tx) => {
    // Positions first: they are compared with "last online" before this batch. Then the device state,
    // which locks the batch's device_current rows (or, for a device without one, its devices row
    // through the foreign key), so a deletion of one of these devices either committed before (the data
    // insert's join then leaves its points out) or waits for this commit and deletes the new points with
    // the device (device_readings has no foreign keys, migrations 0013 and 0043).
    const [, , , stored] = await tx.pipeline([
      () => lockDeviceData(tx, rows.data),
      () => updateDevicePositions(tx, rows.status),
      () => upsertDeviceStateRows(tx, rows.current, rows.status),
      () => insertDeviceDataRows(tx, rows.data, { locked: true, cache, learned }),
      () => insertDeviceLogRows(tx, rows.logs),
      () => updateDownlinkOutcomes(tx, rows.downlinks ?? []),
    ]);
    return stored;
  });
  cache.remember(learned);
  return stored;
}
