/**
 * What the uplink ingestion path reads and writes (apps/ingest). Lookups resolve an uplink's device
 * before the company is known (uuid, credentials), or within the company an integration token names
 * (DevEUI). Writes are one multi-row statement per table per batch, fed by `jsonb_to_recordset($1)`,
 * so a batch of a thousand uplinks costs a handful of round trips on PostgreSQL and on PGlite alike.
 * The writer runs as the owner role: it crosses tenants by design, and every row it writes carries the
 * company the front door resolved.
 */
import type { Db, Queryable } from '../db';

/**
 * Rows as one JSON parameter. jsonb cannot hold the NUL character, and one device sending "\u0000" in
 * a text value would otherwise fail its whole batch again and again; it is dropped from the text.
 * (An escaped backslash before "u0000" is text, not a NUL, and stays.)
 */
function jsonParam(rows: unknown): string {
  return JSON.stringify(rows).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1');
}

export interface IngestDevice {
  id: number;
  companyId: number;
  uuid: string;
  devEui: string | null;
  credentialsHash: string | null;
  driverId: string | null;
  codecId: number | null;
  state: string;
}

export interface IngestIntegrationToken {
  id: number;
  companyId: number;
  kind: string;
}

/**
 * PostgreSQL announces changes of what ingest caches on these channels (migration 0009's triggers):
 * a device's JSON {id, keys: [{company_id, uuid, dev_eui}]} (its keys before and after the change), an
 * integration token's id. The device trigger fires
 * when one of DEVICE_COLUMNS changes; a column added here must be added to that trigger's WHEN too.
 */
export const DEVICE_CHANGED_CHANNEL = 'iot_device_changed';
export const INTEGRATION_TOKEN_CHANGED_CHANNEL = 'iot_integration_token_changed';

const DEVICE_COLUMNS = `id, company_id, uuid::text AS uuid, dev_eui, credentials_hash, driver_id, codec_id, state`;

interface DeviceRow {
  id: number;
  company_id: number;
  uuid: string;
  dev_eui: string | null;
  credentials_hash: string | null;
  driver_id: string | null;
  codec_id: number | null;
  state: string;
}

function toDevice(row: DeviceRow): IngestDevice {
  return {
    id: row.id,
    companyId: row.company_id,
    uuid: row.uuid,
    devEui: row.dev_eui,
    credentialsHash: row.credentials_hash,
    driverId: row.driver_id,
    codecId: row.codec_id,
    state: row.state,
  };
}

/** The device a topic or URL names by uuid (the caller checks the format: a bad uuid is a SQL error). */
export async function findIngestDeviceByUuid(q: Queryable, uuid: string): Promise<IngestDevice | null> {
  const { rows } = await q.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE uuid = $1::uuid`, [
    uuid,
  ]);
  return rows[0] ? toDevice(rows[0]) : null;
}

/** A LoRaWAN device by DevEUI within one company: another company's DevEUI is not found. */
export async function findIngestDeviceByDevEui(
  q: Queryable,
  companyId: number,
  devEui: string,
): Promise<IngestDevice | null> {
  const { rows } = await q.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM devices WHERE dev_eui = $1 AND company_id = $2`,
    [devEui, companyId],
  );
  return rows[0] ? toDevice(rows[0]) : null;
}

/** A live (not revoked) integration token by the sha-256 hex of its value. */
export async function findIntegrationTokenByHash(
  q: Queryable,
  tokenHash: string,
): Promise<IngestIntegrationToken | null> {
  const { rows } = await q.query<{ id: number; company_id: number; kind: string }>(
    'SELECT id, company_id, kind FROM integration_tokens WHERE token_hash = $1 AND revoked_at IS NULL',
    [tokenHash],
  );
  const row = rows[0];
  return row ? { id: row.id, companyId: row.company_id, kind: row.kind } : null;
}

/**
 * Records that an integration token authenticated a request: last_used_at = now, unless another process
 * did so less than `throttleSeconds` ago (then the row is not written at all). Migration 0009's trigger
 * announces nothing for this column.
 */
export async function touchIntegrationToken(q: Queryable, id: number, throttleSeconds = 60): Promise<void> {
  await q.query(
    `UPDATE integration_tokens SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
    [id, throttleSeconds],
  );
}

/** The script of a company's codec; null when it does not exist in that company. */
export async function findCodecScript(
  q: Queryable,
  companyId: number,
  codecId: number,
): Promise<string | null> {
  const { rows } = await q.query<{ script: string }>(
    'SELECT script FROM codecs WHERE id = $1 AND company_id = $2',
    [codecId, companyId],
  );
  return rows[0]?.script ?? null;
}

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
  const result = await q.query(insertDeviceDataSql('$1'), [deviceDataParam(rows)]);
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

const insertDeviceDataSql = (param: string) =>
  `INSERT INTO device_data (device_id, company_id, created_at, data, latitude, longitude, metalabel, fcnt, message_id)
     SELECT r.i, r.c, r.t, r.d, r.a, r.o, r.l, r.f, r.m
       FROM jsonb_to_recordset(${param}::jsonb) AS r(i bigint, c bigint, t timestamptz, d jsonb,
            a double precision, o double precision, l text, f bigint, m text)
       JOIN devices d ON d.id = r.i
     ON CONFLICT (device_id, created_at, message_id) DO NOTHING`;

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

export interface DeviceLogRow {
  device_id: number;
  company_id: number;
  /** Syslog severity 0..7 (3 error, 4 warning). */
  level: number;
  message: string;
  payload: unknown;
  /** Raw bytes as base64, or null. */
  raw: string | null;
  /** ISO time. */
  created_at: string;
}

/**
 * Device log entries: a batch's decode failures with their raw bytes and decoder warnings (storage
 * writer), and what the rules worker decided. device_logs has no foreign keys (migration 0016): the join
 * leaves out entries of a device that no longer exists, and the lock on each device (what the key check
 * took) makes a deletion at the same time wait for this transaction, whose entries its trigger then
 * deletes too.
 */
export async function insertDeviceLogRows(q: Queryable, rows: readonly DeviceLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `INSERT INTO device_logs (device_id, company_id, level, message, payload, raw, created_at)
       SELECT r.device_id, r.company_id, r.level, r.message, r.payload, decode(r.raw, 'base64'), r.created_at
         FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, company_id bigint, level smallint, message text,
              payload jsonb, raw text, created_at timestamptz)
         JOIN devices d ON d.id = r.device_id
          FOR KEY SHARE OF d`,
    [jsonParam(rows)],
  );
}

/**
 * What a network server reported about a downlink it was given (ChirpStack's `ack` event, The Things
 * Stack's downlink_ack and downlink_failed messages), matched to the `downlinks` row by the reference the
 * notifier stored with it: ChirpStack's queue item id, or the correlation id the notifier gave TTS.
 */
export interface DownlinkOutcomeRow {
  device_id: number;
  company_id: number;
  reference: string;
  state: 'acknowledged' | 'failed';
  error: string | null;
  /** ISO time of the report. */
  at: string;
}

/**
 * Moves sent downlinks to their outcome. Only a `sent` row moves, so a report delivered twice (the log
 * redelivers a batch) or after another outcome changes nothing. The row must be of the device and company
 * the report came for: a network server's report cannot touch another company's downlinks.
 */
export async function updateDownlinkOutcomes(
  q: Queryable,
  rows: readonly DownlinkOutcomeRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await q.query(
    `UPDATE downlinks d SET state = r.state, error = r.error,
            acknowledged_at = CASE WHEN r.state = 'acknowledged' THEN r.at ELSE d.acknowledged_at END
       FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, company_id bigint, reference text, state text,
            error text, at timestamptz)
      WHERE d.device_id = r.device_id AND d.company_id = r.company_id AND d.reference = r.reference
        AND d.state = 'sent'`,
    [jsonParam(rows)],
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
 * On PGlite (in its worker thread) the statements are sent together instead of one after another:
 * the worker runs a transaction's statements in the order they arrive, so PGlite does not wait for a
 * round trip to the main thread, which is busy with the front door and the rules worker, between
 * statements while it holds its one connection. The first error (a statement fails, the later ones then
 * fail on the aborted transaction) rejects the callback and the transaction rolls back as before.
 * node-postgres has no such pipelining (a query issued while one runs is queued in the client and
 * deprecated), and a round trip to PostgreSQL on this machine costs well under 0.1 ms: there they are
 * awaited one by one. Also measured and not kept: the four as data-modifying CTEs of one statement
 * (no BEGIN/COMMIT round trips), 10 to 25 % more time in the database per batch than four statements
 * on PostgreSQL and PGlite alike (writer-sql bench, apps/ingest/README.md).
 */
export async function writeIngestBatch(db: Db, rows: IngestBatchRows): Promise<number> {
  return db.transaction(async (tx) => {
    // Positions first: they are compared with "last online" before this batch. Then the device state,
    // which locks the batch's device_current rows (or, for a device without one, its devices row
    // through the foreign key), so a deletion of one of these devices either committed before (the data
    // insert's join then leaves its points out) or waits for this commit and deletes the new points with
    // the device (device_data has no foreign keys, migration 0013).
    if (db.kind === 'pglite') {
      const [, , stored] = await Promise.all([
        updateDevicePositions(tx, rows.status),
        upsertDeviceStateRows(tx, rows.current, rows.status),
        insertDeviceDataRows(tx, rows.data),
        insertDeviceLogRows(tx, rows.logs),
        updateDownlinkOutcomes(tx, rows.downlinks ?? []),
      ]);
      return stored;
    }
    await updateDevicePositions(tx, rows.status);
    await upsertDeviceStateRows(tx, rows.current, rows.status);
    const stored = await insertDeviceDataRows(tx, rows.data);
    await insertDeviceLogRows(tx, rows.logs);
    await updateDownlinkOutcomes(tx, rows.downlinks ?? []);
    return stored;
  });
}
