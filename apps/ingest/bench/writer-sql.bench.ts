/**
 * The storage writer's transaction on PostgreSQL alone, per statement. The data insert rotates between
 * the repository's statement, the one before it and a candidate; the latest-value upsert alternates with a
 * candidate; so all are measured in the same run, on the same table sizes. Group commits of N envelopes
 * over 2000 devices with the simulator's readings (as tests/bench/ingest.bench.ts sends them).
 *
 *   npx tsx apps/ingest/bench/writer-sql.bench.ts [envelopes per write=5000] [writes=20]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  type DeviceCurrentRow,
  type DeviceDataRow,
  insertDeviceDataRows,
  insertDeviceLogRows,
  migrate,
  openPostgres,
  type Queryable,
  updateDeviceStatusRows,
  upsertDeviceCurrentRows,
} from '@iot/db';
import { buildUplink, profileOf } from '@iot/simulator';
import pg from 'pg';
import type { UplinkEnvelope } from '../src/index.js';
import { buildBatchRows } from '../src/writer/build-batch-rows.js';

const noNul = (text: string) => text.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1');

/** The data insert as it was before (full column names as JSON keys, nulls included). */
async function beforeInsertData(q: Queryable, rows: readonly DeviceDataRow[]): Promise<number> {
  const result = await q.query(
    `INSERT INTO device_data (device_id, company_id, created_at, data, latitude, longitude, metalabel, fcnt, message_id)
     SELECT r.device_id, r.company_id, r.created_at, r.data, r.latitude, r.longitude, r.metalabel, r.fcnt, r.message_id
       FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, company_id bigint, created_at timestamptz, data jsonb,
            latitude double precision, longitude double precision, metalabel text, fcnt bigint, message_id text)
       JOIN devices d ON d.id = r.device_id
     ON CONFLICT (device_id, created_at, message_id) DO NOTHING`,
    [noNul(JSON.stringify(rows))],
  );
  return result.rowCount;
}

/**
 * Candidate: one array parameter per column (`unnest`) instead of one JSON document of rows, so that
 * PostgreSQL parses each row's data once. Measured slower here (node-postgres escapes every JSON text
 * into an array literal, PostgreSQL parses the literal); not adopted.
 */
async function candidateInsertData(q: Queryable, rows: readonly DeviceDataRow[]): Promise<number> {
  const n = rows.length;
  const columns = Array.from({ length: 9 }, () => new Array<unknown>(n));
  for (let i = 0; i < n; i++) {
    const r = rows[i] as DeviceDataRow;
    const values = [
      r.device_id,
      r.company_id,
      r.created_at,
      noNul(JSON.stringify(r.data)),
      r.latitude,
      r.longitude,
      r.metalabel,
      r.fcnt,
      r.message_id,
    ];
    for (let c = 0; c < 9; c++) (columns[c] as unknown[])[i] = values[c];
  }
  const result = await q.query(
    `INSERT INTO device_data (device_id, company_id, created_at, data, latitude, longitude, metalabel, fcnt, message_id)
     SELECT r.device_id, r.company_id, r.created_at, r.data, r.latitude, r.longitude, r.metalabel, r.fcnt, r.message_id
       FROM unnest($1::bigint[], $2::bigint[], $3::timestamptz[], $4::jsonb[], $5::float8[], $6::float8[],
                   $7::text[], $8::bigint[], $9::text[])
            AS r(device_id, company_id, created_at, data, latitude, longitude, metalabel, fcnt, message_id)
       JOIN devices d ON d.id = r.device_id
     ON CONFLICT (device_id, created_at, message_id) DO NOTHING`,
    columns,
  );
  return result.rowCount;
}

/**
 * Candidate: the latest-value upsert with values and times merged in one subquery instead of two.
 * Measured no faster here; not adopted.
 */
async function candidateUpsertCurrent(q: Queryable, rows: readonly DeviceCurrentRow[]): Promise<void> {
  await q.query(
    `INSERT INTO device_current AS c (device_id, company_id, data, field_times, latitude, longitude, updated_at)
     SELECT r.device_id, r.company_id, r.data, r.field_times, r.latitude, r.longitude, r.updated_at
       FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, company_id bigint, data jsonb, field_times jsonb,
            latitude double precision, longitude double precision, updated_at timestamptz)
       JOIN devices d ON d.id = r.device_id AND d.company_id = r.company_id
     ON CONFLICT (device_id) DO UPDATE SET
       (data, field_times) = (
         SELECT c.data || COALESCE(jsonb_object_agg(f.key, EXCLUDED.data -> f.key) FILTER (WHERE EXCLUDED.data ? f.key), '{}'::jsonb),
                c.field_times || COALESCE(jsonb_object_agg(f.key, f.at), '{}'::jsonb)
           FROM jsonb_each_text(EXCLUDED.field_times) AS f(key, at)
          WHERE c.field_times ->> f.key IS NULL OR (c.field_times ->> f.key)::timestamptz <= f.at::timestamptz
       ),
       latitude = CASE WHEN EXCLUDED.latitude IS NOT NULL AND (c.field_times ->> 'geo' IS NULL
                    OR (c.field_times ->> 'geo')::timestamptz <= (EXCLUDED.field_times ->> 'geo')::timestamptz)
                  THEN EXCLUDED.latitude ELSE c.latitude END,
       longitude = CASE WHEN EXCLUDED.longitude IS NOT NULL AND (c.field_times ->> 'geo' IS NULL
                    OR (c.field_times ->> 'geo')::timestamptz <= (EXCLUDED.field_times ->> 'geo')::timestamptz)
                  THEN EXCLUDED.longitude ELSE c.longitude END,
       updated_at = GREATEST(c.updated_at, EXCLUDED.updated_at)`,
    [noNul(JSON.stringify(rows))],
  );
}

const PER_WRITE = Number(process.argv[2] ?? 5000);
const WRITES = Number(process.argv[3] ?? 20);
const DEVICES = 2000;

const name = `bench_wsql_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const db = openPostgres({ url: `postgres://postgres@127.0.0.1:5432/${name}`, max: 4 });
try {
  await migrate(db);
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
  console.log('sample envelope', JSON.stringify(envelopesOf(1)[0]));
  const t = {
    build: 0,
    data: 0,
    dataBefore: 0,
    dataUnnest: 0,
    current: 0,
    current1pass: 0,
    status: 0,
    logs: 0,
    commit: 0,
    total: 0,
  };
  const start = performance.now();
  for (let w = 0; w < WRITES; w++) {
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
    await db.transaction(async (tx) => {
      mark = performance.now();
      if (w % 3 === 0) {
        await insertDeviceDataRows(tx, rows.data);
        lap('data');
      } else if (w % 3 === 1) {
        await beforeInsertData(tx, rows.data);
        lap('dataBefore');
      } else {
        await candidateInsertData(tx, rows.data);
        lap('dataUnnest');
      }
      if (w % 2 === 1) {
        await upsertDeviceCurrentRows(tx, rows.current);
        lap('current');
      } else {
        await candidateUpsertCurrent(tx, rows.current);
        lap('current1pass');
      }
      await updateDeviceStatusRows(tx, rows.status);
      lap('status');
      await insertDeviceLogRows(tx, rows.logs);
      lap('logs');
    });
    lap('commit');
    t.total += performance.now() - t0;
  }
  const total = PER_WRITE * WRITES;
  const per = (ms: number) => `${((ms / total) * 1000).toFixed(1)} us`;
  console.log(
    `${WRITES} writes x ${PER_WRITE} envelopes over ${DEVICES} devices: ${Math.round((total / (performance.now() - start)) * 1000)} envelopes/s (incl. generating them); ` +
      `in the writer ${Math.round((total / t.total) * 1000)}/s`,
  );
  for (const [k, v] of Object.entries(t))
    console.log(
      `  ${k.padEnd(12)} ${Math.round(v)} ms  ${k.startsWith('data') ? `${per(3 * v)} per envelope (a third of the writes)` : k.startsWith('current') ? `${per(2 * v)} per envelope (half the writes)` : `${per(v)} per envelope`}`,
    );
} finally {
  await db.close();
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  await admin.end();
}
