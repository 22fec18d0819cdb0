/**
 * Storage per data point (issue #29; target at most 40 bytes per reading on PostgreSQL without TimescaleDB),
 * on PostgreSQL and on PGlite.
 *
 *   npx tsx tests/bench/storage.bench.ts            (or: npm run bench:storage -w @iot/tests)
 *   STORAGE_DEVICES=10 STORAGE_DAYS=30 (defaults)   BENCH_KINDS=postgres,pglite
 *
 * Stores DEVICES devices with DAYS of 10-minute uplinks of four numeric fields through the storage
 * writer's statement (insertDeviceDataRows), builds their hourly rollups as the background builder does,
 * VACUUMs, and divides the bytes of each relation (table, TOAST and indexes: pg_total_relation_size, less
 * what the empty relation took) by the readings stored (uplinks x 4 fields). The layout measured is
 * migration 0043's (device_readings, device_rollups, device_series); beside it, in the same database and
 * run, the same readings in plain tables the bench creates: the JSONB row per uplink that device_data was
 * before 0043 (its unique btree and BRIN index), one row per reading (device, field, time, float8 value),
 * and one row per uplink with a float4 array and no message id. Then the same readings for as many new
 * devices again, stored as live ingestion stores them (the devices' uplinks interleaved by time), once with
 * the uplink's number as message id and once with a 36-character one (an LNS deduplication UUID),
 * measured by how much the relations grew. Seconds, not minutes, at the defaults.
 */
import { availableParallelism, loadavg } from 'node:os';
import { buildRollupsAhead, type Db, type DeviceDataRow, insertDeviceDataRows, withTenant } from '@iot/db';
import { KINDS, openBenchDb } from './device-data/setup.js';
import { type RunRecorder, startRun } from './lib/results.js';

const DEVICES = Number(process.env.STORAGE_DEVICES ?? 10);
const DAYS = Number(process.env.STORAGE_DAYS ?? 30);
const STEP_MS = 10 * 60_000;
const FIELDS = ['temperature', 'humidity', 'battery_level', 'wind_speed_kmh'];
const TARGET_BYTES = 40;

/** The layouts measured beside migration 0043's, created in the bench database only. */
const OTHER_LAYOUTS = `
  CREATE TABLE bench_jsonb_rows (
    device_id bigint NOT NULL, company_id bigint NOT NULL, created_at timestamptz NOT NULL,
    data jsonb NOT NULL, latitude double precision, longitude double precision, metalabel text,
    fcnt bigint, message_id text);
  CREATE UNIQUE INDEX bench_jsonb_rows_key ON bench_jsonb_rows (device_id, created_at DESC, message_id);
  CREATE INDEX bench_jsonb_rows_brin ON bench_jsonb_rows USING brin (created_at);
  CREATE TABLE bench_reading_rows (
    device_id integer NOT NULL, field_id smallint NOT NULL, created_at timestamptz NOT NULL,
    value double precision NOT NULL);
  CREATE INDEX bench_reading_rows_key ON bench_reading_rows (device_id, field_id, created_at);
  CREATE TABLE bench_uplink_arrays (
    device_id integer NOT NULL, created_at timestamptz NOT NULL, field_set integer NOT NULL,
    values real[] NOT NULL);
  CREATE INDEX bench_uplink_arrays_key ON bench_uplink_arrays (device_id, created_at);`;

const RELATIONS = [
  'device_readings',
  'device_rollups',
  'device_series',
  'bench_jsonb_rows',
  'bench_reading_rows',
  'bench_uplink_arrays',
];

async function sizes(db: Db): Promise<Record<string, number>> {
  const { rows } = await db.query<{ name: string; bytes: string }>(
    `SELECT name, pg_total_relation_size(name::regclass)::text AS bytes FROM unnest($1::text[]) AS name`,
    [RELATIONS],
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
}

/** The g-th uplink's values (as the device data bench's seed). */
function values(g: number): Record<string, number> {
  return {
    temperature: Math.round((10 + 15 * Math.sin((g / 144) * 6.283)) * 100) / 100,
    humidity: 50 + (g % 40),
    battery_level: Math.round((100 - g / 600) * 10) / 10,
    wind_speed_kmh: (g * 7919) % 60,
  };
}

/** How a pass orders its uplinks and names their message ids. */
interface Pass {
  /** Uplinks of all devices by time (as live ingestion) instead of each device's in turn. */
  interleaved: boolean;
  messageId: (g: number) => string;
}

/** DAYS of 10-minute uplinks from `from` for each device, through the writer, 1000 per statement. */
async function store(db: Db, companyId: number, deviceIds: number[], from: number, pass: Pass) {
  const perDevice = DAYS * 144;
  const all: DeviceDataRow[] = [];
  for (const [d, deviceId] of deviceIds.entries()) {
    for (let g = 0; g < perDevice; g++) {
      all[pass.interleaved ? g * deviceIds.length + d : d * perDevice + g] = {
        device_id: deviceId,
        company_id: companyId,
        created_at: new Date(from + g * STEP_MS).toISOString(),
        data: values(g),
        latitude: null,
        longitude: null,
        metalabel: null,
        fcnt: null,
        message_id: pass.messageId(g),
      };
    }
  }
  for (let i = 0; i < all.length; i += 1000) await insertDeviceDataRows(db, all.slice(i, i + 1000));
}

async function seed(db: Db, companyId: number, deviceIds: number[], from: number) {
  await store(db, companyId, deviceIds, from, { interleaved: false, messageId: String });
  // The same readings, from the device_data view, in the other layouts.
  await db.query(
    `INSERT INTO bench_jsonb_rows (device_id, company_id, created_at, data, message_id)
     SELECT device_id, company_id, created_at, data,
            (row_number() OVER (PARTITION BY device_id ORDER BY created_at) - 1)::text
       FROM device_data ORDER BY device_id, created_at`,
  );
  await db.query(
    `INSERT INTO bench_reading_rows (device_id, field_id, created_at, value)
     SELECT d.device_id, f.id, d.created_at, (d.data->>f.name)::float8
       FROM bench_jsonb_rows d CROSS JOIN unnest($1::text[]) WITH ORDINALITY AS f(name, id)`,
    [FIELDS],
  );
  await db.query(
    `INSERT INTO bench_uplink_arrays (device_id, created_at, field_set, values)
     SELECT device_id, created_at, 1,
            ARRAY[(data->>'temperature')::real, (data->>'humidity')::real, (data->>'battery_level')::real,
                  (data->>'wind_speed_kmh')::real]
       FROM bench_jsonb_rows`,
  );
}

async function newDevices(db: Db, companyId: number): Promise<{ id: number }[]> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO devices (company_id, name) SELECT $1, 'Station ' || g FROM generate_series(1, $2::int) g
     RETURNING id::int AS id`,
    [companyId, DEVICES],
  );
  return rows;
}

/** The hourly rollups of every device, as the background builder builds them. */
async function rollUp(db: Db, companyId: number, devices: { id: number }[], from: number, end: number) {
  for (const { id } of devices) {
    await withTenant(db, companyId, (tx) =>
      buildRollupsAhead(tx, companyId, id, FIELDS, { from: new Date(from), to: new Date(end) }),
    );
  }
}

async function benchKind(kind: string, recorder: RunRecorder) {
  const { db, drop } = await openBenchDb(kind);
  try {
    await db.exec(OTHER_LAYOUTS);
    const empty = await sizes(db);
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO companies (name) VALUES ('Storage bench') RETURNING id::int AS id`,
    );
    const companyId = rows[0]!.id;
    const devices = await newDevices(db, companyId);
    const end = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
    const from = end - DAYS * 144 * STEP_MS;
    await seed(
      db,
      companyId,
      devices.map((d) => d.id),
      from,
    );
    await rollUp(db, companyId, devices, from, end);
    await db.exec('VACUUM ANALYZE');
    const full = await sizes(db);
    const readings = DEVICES * DAYS * 144 * FIELDS.length;
    const per = (name: string) => (full[name]! - empty[name]!) / readings;
    // The same readings again for new devices, as live ingestion writes them, measured by growth.
    const live = async (pass: Pass) => {
      const before = await sizes(db);
      const more = await newDevices(db, companyId);
      await store(
        db,
        companyId,
        more.map((d) => d.id),
        from,
        pass,
      );
      await rollUp(db, companyId, more, from, end);
      await db.exec('VACUUM ANALYZE');
      const after = await sizes(db);
      const grown = ['device_readings', 'device_rollups', 'device_series'].map((n) => after[n]! - before[n]!);
      return grown.reduce((a, b) => a + b, 0) / readings;
    };
    const interleaved = await live({ interleaved: true, messageId: String });
    // A LoRaWAN network server's deduplication id (a UUID) instead of the uplink's number.
    const uuidIds = await live({
      interleaved: true,
      messageId: (g) => `00000000-0000-4000-8000-${String(g).padStart(12, '0')}`,
    });
    const total = per('device_readings') + per('device_rollups') + per('device_series');
    console.log(
      [
        `${kind} (load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores): ${DEVICES} devices x ${DAYS} days of 10-minute uplinks, ${FIELDS.length} fields: ${readings} readings`,
        `  device_readings (value arrays per uplink, table + indexes): ${per('device_readings').toFixed(1)} bytes per reading`,
        `  device_rollups (hours and 6-hour blocks, + primary key):    ${per('device_rollups').toFixed(1)} bytes per reading`,
        `  device_series (field sets):                                 ${per('device_series').toFixed(1)} bytes per reading`,
        `  together:                                                   ${total.toFixed(1)} bytes per reading (target at most ${TARGET_BYTES} on PostgreSQL)`,
        `  the same, devices interleaved by time (as live ingestion):  ${interleaved.toFixed(1)} bytes per reading`,
        `  ... and with 36-character message ids (LNS UUIDs):          ${uuidIds.toFixed(1)} bytes per reading`,
        `  before 0043: JSONB per uplink (unique btree, BRIN):         ${per('bench_jsonb_rows').toFixed(1)} bytes per reading (+ its rollups)`,
        `  one row per reading (float8, btree):                        ${per('bench_reading_rows').toFixed(1)} bytes per reading`,
        `  one row per uplink, float4 array, no message id (btree):    ${per('bench_uplink_arrays').toFixed(1)} bytes per reading`,
      ].join('\n'),
    );
    const figure = (name: string, value: number, extra: object = {}) =>
      recorder.add({ name: `${kind}: ${name}`, value: Number(value.toFixed(1)), unit: 'bytes', ...extra });
    figure('bytes per reading, device data + rollups', total, {
      baseline: Number(per('bench_jsonb_rows').toFixed(1)),
      ...(kind === 'postgres' ? { target: { atMost: TARGET_BYTES } } : {}),
    });
    figure('bytes per reading, devices interleaved', interleaved);
    figure('bytes per reading, devices interleaved, UUID message ids', uuidIds);
    figure('bytes per reading, device_readings', per('device_readings'));
    figure('bytes per reading, rollups', per('device_rollups'));
    figure('bytes per reading, JSONB row per uplink (before 0043)', per('bench_jsonb_rows'));
    figure('bytes per reading, row per reading', per('bench_reading_rows'));
    figure('bytes per reading, row per uplink with float4 array', per('bench_uplink_arrays'));
  } finally {
    await drop();
  }
}

const recorder = startRun('storage', { kinds: KINDS.join(','), devices: DEVICES, days: DAYS });
for (const kind of KINDS) await benchKind(kind.trim(), recorder);
recorder.save();
