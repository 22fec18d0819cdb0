/**
 * The storage writer's write alone, on PostgreSQL (or PGlite in its worker thread), with the path it
 * replaced as the baseline in the same run. Writes rotate between three modes, on the same tables:
 *   now     writeIngestBatch, as the writer calls it (on PGlite its four statements sent together);
 *   split   the same four statements awaited one by one in the same order, each timed (where the time goes);
 *   before  the path before migration 0015 (2026-11-22): the status in the devices row, so two row updates
 *           per device (status, then latest values) besides the data and log inserts, each timed. The
 *           bench gives its own database's devices table the old status columns back for it.
 * Group commits of N envelopes over 2000 devices (or as many as given) with the simulator's readings (as
 * tests/bench/ingest.bench.ts sends them).
 *
 *   npx tsx apps/ingest/bench/writer-sql.bench.ts [envelopes per write=5000] [writes=21] [postgres|pglite]
 *     [devices=2000]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  type Db,
  type DeviceCurrentRow,
  type DeviceStatusRow,
  insertDeviceDataRows,
  insertDeviceLogRows,
  migrate,
  openPglite,
  openPostgres,
  type Queryable,
  updateDevicePositions,
  upsertDeviceStateRows,
  writeIngestBatch,
} from '@iot/db';
import { buildUplink, profileOf } from '@iot/simulator';
import pg from 'pg';
import type { UplinkEnvelope } from '../src/index.js';
import { buildBatchRows } from '../src/writer/build-batch-rows.js';

const noNul = (text: string) => text.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1');

const noNulJson = (rows: unknown) => noNul(JSON.stringify(rows));

/** The latest-value upsert before migration 0015 (its fast and per-field paths, no status columns). */
async function beforeUpsertCurrent(q: Queryable, rows: readonly DeviceCurrentRow[]): Promise<void> {
  const param = rows.map((row) => {
    let oldest = row.updated_at;
    for (const at of Object.values(row.field_times)) if (at < oldest) oldest = at;
    return { ...row, oldest };
  });
  await q.query(
    `WITH cur_rows AS MATERIALIZED (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, company_id bigint, data jsonb,
              field_times jsonb, latitude double precision, longitude double precision, updated_at timestamptz,
              oldest timestamptz)),
     cur_fast AS (
       UPDATE device_current c SET
         data = c.data || r.data,
         field_times = c.field_times || r.field_times,
         latitude = COALESCE(r.latitude, c.latitude),
         longitude = COALESCE(r.longitude, c.longitude),
         updated_at = GREATEST(c.updated_at, r.updated_at)
       FROM cur_rows r
       WHERE c.device_id = r.device_id AND c.company_id = r.company_id AND c.updated_at <= r.oldest
       RETURNING c.device_id),
     cur_rest AS (
     INSERT INTO device_current AS c (device_id, company_id, data, field_times, latitude, longitude, updated_at)
     SELECT r.device_id, r.company_id, r.data, r.field_times, r.latitude, r.longitude, r.updated_at
       FROM cur_rows r
       JOIN devices d ON d.id = r.device_id AND d.company_id = r.company_id
      WHERE r.device_id NOT IN (SELECT device_id FROM cur_fast)
     ON CONFLICT (device_id) DO UPDATE SET
       data = c.data || COALESCE((
         SELECT jsonb_object_agg(f.key, EXCLUDED.data -> f.key)
           FROM jsonb_each_text(EXCLUDED.field_times) AS f(key, at)
          WHERE EXCLUDED.data ? f.key
            AND (c.field_times ->> f.key IS NULL OR (c.field_times ->> f.key)::timestamptz <= f.at::timestamptz)
       ), '{}'::jsonb),
       field_times = c.field_times || COALESCE((
         SELECT jsonb_object_agg(f.key, f.at)
           FROM jsonb_each_text(EXCLUDED.field_times) AS f(key, at)
          WHERE c.field_times ->> f.key IS NULL OR (c.field_times ->> f.key)::timestamptz <= f.at::timestamptz
       ), '{}'::jsonb),
       updated_at = GREATEST(c.updated_at, EXCLUDED.updated_at))
     SELECT 1`,
    [noNulJson(param)],
  );
}

/** The old status columns of devices, for the `before` mode. */
const OLD_STATUS_COLUMNS = [
  ['battery_level', 'double precision'],
  ['battery_voltage', 'double precision'],
  ['signal_strength', 'smallint'],
  ['rssi', 'integer'],
  ['snr', 'double precision'],
  ['mobile_data_volume', 'bigint'],
  ['latitude', 'double precision'],
  ['longitude', 'double precision'],
] as const;

/** The status update of the devices row before migration 0015. */
async function beforeUpdateStatus(q: Queryable, rows: readonly DeviceStatusRow[]): Promise<void> {
  const param = rows.map(({ device_id, company_id, last_online_at, ...status }) => {
    const flat: Record<string, unknown> = { device_id, company_id, last_online_at };
    for (const [column, timed] of Object.entries(status)) {
      if (!timed) continue;
      flat[column] = timed.value;
      flat[`${column}_at`] = timed.at;
    }
    return flat;
  });
  await q.query(
    `UPDATE devices d SET
       is_active = true,
       last_online_at = GREATEST(d.last_online_at, r.last_online_at),
       ${OLD_STATUS_COLUMNS.map(
         ([c]) =>
           `${c} = CASE WHEN r.${c}_at >= COALESCE(d.last_online_at, '-infinity') THEN r.${c} ELSE d.${c} END`,
       ).join(',\n       ')}
     FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, company_id bigint, last_online_at timestamptz,
          ${OLD_STATUS_COLUMNS.map(([c, type]) => `${c} ${type}, ${c}_at timestamptz`).join(', ')})
     WHERE d.id = r.device_id AND d.company_id = r.company_id`,
    [noNulJson(param)],
  );
}

const PER_WRITE = Number(process.argv[2] ?? 5000);
const WRITES = Number(process.argv[3] ?? 21);
const ENGINE = process.argv[4] ?? 'postgres';
const DEVICES = Number(process.argv[5] ?? 2000);

const name = `bench_wsql_${randomBytes(4).toString('hex')}`;
const admin =
  ENGINE === 'pglite'
    ? undefined
    : new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
let db: Db;
if (admin) {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  db = openPostgres({ url: `postgres://postgres@127.0.0.1:5432/${name}`, max: 4 });
} else {
  db = await openPglite();
}
try {
  await migrate(db);
  // For the `before` mode: the status columns devices had before migration 0015 (latitude and longitude
  // it still has).
  await db.query(
    `ALTER TABLE devices ${OLD_STATUS_COLUMNS.filter(([c]) => c !== 'latitude' && c !== 'longitude')
      .map(([c, type]) => `ADD COLUMN ${c} ${type}`)
      .join(
        ', ',
      )}, ADD COLUMN last_online_at timestamptz, ADD COLUMN is_active boolean NOT NULL DEFAULT false`,
  );
  const { rows: c } = await db.query<{ id: number }>(
    "INSERT INTO companies (name) VALUES ('bench') RETURNING id::int AS id",
  );
  const companyId = c[0]!.id;
  const uuids = Array.from({ length: DEVICES }, () => randomUUID());
  const { rows: devices } = await db.query<{ id: number; uuid: string; name: string }>(
    `INSERT INTO devices (company_id, name, uuid, credentials_hash)
     SELECT $1, 'bench ' || t.i, t.u::uuid, md5(t.u) FROM unnest($2::text[]) WITH ORDINALITY AS t(u, i)
     RETURNING id::int AS id, uuid::text AS uuid, name`,
    [companyId, uuids],
  );
  const state = { clicks: 0, startedAt: Date.now(), rnd: Math.random };
  let n = 0;
  const envelopesOf = (count: number): UplinkEnvelope[] => {
    const out: UplinkEnvelope[] = [];
    const now = Date.now();
    for (let i = 0; i < count; i++, n++) {
      const d = devices[n % DEVICES]!;
      const sim = { ...d, token: '', device_type: null, driver_id: null };
      const up = buildUplink(sim, profileOf(sim, d.id), state, now);
      const json = JSON.parse(Buffer.from(up.body).toString('utf8')) as Record<string, unknown>;
      const { id, message_id, time, ...data } = json;
      const at = typeof time === 'string' ? time : new Date(now).toISOString();
      out.push({
        v: 1,
        kind: 'uplink',
        deviceId: d.id,
        companyId,
        source: 'mqtt',
        receivedAt: new Date(now).toISOString(),
        measuredAt: at,
        messageId: String(message_id ?? id ?? up.messageId),
        data: data as UplinkEnvelope['data'],
      });
    }
    return out;
  };
  const modes = ['now', 'split', 'before'] as const;
  const t = {
    build: 0,
    now: 0,
    split: 0,
    before: 0,
    'split positions': 0,
    'split state': 0,
    'split data': 0,
    'split logs': 0,
    'split commit': 0,
    'before status': 0,
    'before current': 0,
    'before data': 0,
    'before logs': 0,
    'before commit': 0,
  };
  const writes = { now: 0, split: 0, before: 0 };
  const start = performance.now();
  for (let w = 0; w < WRITES; w++) {
    const mode = modes[w % modes.length]!;
    const envelopes = envelopesOf(PER_WRITE);
    const t0 = performance.now();
    const rows = buildBatchRows(envelopes);
    const t1 = performance.now();
    t.build += t1 - t0;
    let mark = t1;
    const lap = (k: keyof typeof t) => {
      const now = performance.now();
      t[k] += now - mark;
      mark = now;
    };
    if (mode === 'now') {
      await writeIngestBatch(db, rows);
    } else {
      await db.transaction(async (tx) => {
        mark = performance.now();
        if (mode === 'split') {
          // writeIngestBatch's order: positions, then the state (which locks the devices' rows before
          // their points go in), data, logs.
          await updateDevicePositions(tx, rows.status);
          lap('split positions');
          await upsertDeviceStateRows(tx, rows.current, rows.status);
          lap('split state');
        } else {
          await beforeUpdateStatus(tx, rows.status);
          lap('before status');
          await beforeUpsertCurrent(tx, rows.current);
          lap('before current');
        }
        await insertDeviceDataRows(tx, rows.data);
        lap(`${mode} data`);
        await insertDeviceLogRows(tx, rows.logs);
        lap(`${mode} logs`);
      });
      lap(`${mode} commit`);
    }
    t[mode] += performance.now() - t1;
    writes[mode]++;
  }
  const total = PER_WRITE * WRITES;
  const us = (ms: number, n: number) => `${((ms / (n * PER_WRITE)) * 1000).toFixed(1)} us per envelope`;
  console.log(
    `${ENGINE}: ${WRITES} writes x ${PER_WRITE} envelopes over ${DEVICES} devices (${Math.round((total / (performance.now() - start)) * 1000)} envelopes/s incl. generating them)`,
  );
  console.log(`  building rows (JS) ${us(t.build, WRITES)}`);
  for (const mode of modes)
    console.log(
      `  ${mode.padEnd(7)} ${Math.round((writes[mode] * PER_WRITE * 1000) / (t[mode] + (t.build * writes[mode]) / WRITES))} envelopes/s with building rows, ${us(t[mode], writes[mode])} in SQL`,
    );
  for (const [k, v] of Object.entries(t))
    if (k.includes(' '))
      console.log(`    ${k.padEnd(16)} ${us(v, writes[k.split(' ')[0] as 'split' | 'before'])}`);
} finally {
  await db.close();
  if (admin) {
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
}
