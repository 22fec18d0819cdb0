/**
 * Storage per data point (issue #29; target at most 40 bytes per reading on PostgreSQL without TimescaleDB),
 * on PostgreSQL and on PGlite.
 *
 *   npx tsx tests/bench/storage.bench.ts            (or: npm run bench:storage -w @iot/tests)
 *   STORAGE_DEVICES=10 STORAGE_DAYS=30 (defaults)   BENCH_KINDS=postgres,pglite
 *
 * Seeds DEVICES devices with DAYS of 10-minute uplinks of four numeric fields (as the device data bench),
 * builds their chart rollups as the background builder does, VACUUMs, and divides the bytes of each
 * relation (table, TOAST and indexes: pg_total_relation_size, less what the empty relation took) by the
 * readings stored (uplinks x 4 fields). Beside today's layout (one JSONB per uplink in device_data, plus
 * device_data_rollups), in the same database and run, two narrower layouts of the same readings, as plain
 * tables the bench creates: one row per reading (device, field, time, float8 value), and one row per
 * uplink with its values as a float4 array under a field set id. Seconds, not minutes, at the defaults.
 */
import { availableParallelism, loadavg } from 'node:os';
import { buildRollupsAhead, type Db, withTenant } from '@iot/db';
import { KINDS, openBenchDb } from './device-data/setup.js';
import { type RunRecorder, startRun } from './lib/results.js';

const DEVICES = Number(process.env.STORAGE_DEVICES ?? 10);
const DAYS = Number(process.env.STORAGE_DAYS ?? 30);
const STEP_MS = 10 * 60_000;
const FIELDS = ['temperature', 'humidity', 'battery_level', 'wind_speed_kmh'];
const TARGET_BYTES = 40;

/** The narrower layouts measured beside today's, created in the bench database only. */
const NARROW_LAYOUTS = `
  CREATE TABLE bench_reading_rows (
    device_id integer NOT NULL, field_id smallint NOT NULL, created_at timestamptz NOT NULL,
    value double precision NOT NULL);
  CREATE INDEX bench_reading_rows_key ON bench_reading_rows (device_id, field_id, created_at);
  CREATE TABLE bench_uplink_arrays (
    device_id integer NOT NULL, created_at timestamptz NOT NULL, field_set integer NOT NULL,
    values real[] NOT NULL);
  CREATE INDEX bench_uplink_arrays_key ON bench_uplink_arrays (device_id, created_at);`;

const RELATIONS = ['device_data', 'device_data_rollups', 'bench_reading_rows', 'bench_uplink_arrays'];

async function sizes(db: Db): Promise<Record<string, number>> {
  const { rows } = await db.query<{ name: string; bytes: string }>(
    `SELECT name, pg_total_relation_size(name::regclass)::text AS bytes FROM unnest($1::text[]) AS name`,
    [RELATIONS],
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.bytes)]));
}

/** DAYS of 10-minute uplinks ending `end` for each device, in each layout. */
async function seed(db: Db, companyId: number, deviceIds: number[], from: number) {
  const perDevice = DAYS * 144;
  for (const deviceId of deviceIds) {
    await db.query(
      `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
       SELECT $1, $2, $3::timestamptz + make_interval(mins => 10 * g),
              jsonb_build_object('temperature', round((10 + 15 * sin(g / 144.0 * 6.283))::numeric, 2),
                                 'humidity', 50 + (g % 40), 'battery_level', round(100 - g / 600.0, 1),
                                 'wind_speed_kmh', (g * 7919) % 60),
              g::text
         FROM generate_series(0, $4::int - 1) AS g`,
      [deviceId, companyId, new Date(from).toISOString(), perDevice],
    );
  }
  // The same readings, from device_data, in the narrower layouts.
  await db.query(
    `INSERT INTO bench_reading_rows (device_id, field_id, created_at, value)
     SELECT d.device_id, f.id, d.created_at, (d.data->>f.name)::float8
       FROM device_data d CROSS JOIN unnest($1::text[]) WITH ORDINALITY AS f(name, id)`,
    [FIELDS],
  );
  await db.query(
    `INSERT INTO bench_uplink_arrays (device_id, created_at, field_set, values)
     SELECT device_id, created_at, 1,
            ARRAY[(data->>'temperature')::real, (data->>'humidity')::real, (data->>'battery_level')::real,
                  (data->>'wind_speed_kmh')::real]
       FROM device_data`,
  );
}

async function benchKind(kind: string, recorder: RunRecorder) {
  const { db, drop } = await openBenchDb(kind);
  try {
    await db.exec(NARROW_LAYOUTS);
    const empty = await sizes(db);
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO companies (name) VALUES ('Storage bench') RETURNING id::int AS id`,
    );
    const companyId = rows[0]!.id;
    const { rows: devices } = await db.query<{ id: number }>(
      `INSERT INTO devices (company_id, name) SELECT $1, 'Station ' || g FROM generate_series(1, $2::int) g
       RETURNING id::int AS id`,
      [companyId, DEVICES],
    );
    const end = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
    const from = end - DAYS * 144 * STEP_MS;
    await seed(
      db,
      companyId,
      devices.map((d) => d.id),
      from,
    );
    for (const { id } of devices) {
      await withTenant(db, companyId, (tx) =>
        buildRollupsAhead(tx, companyId, id, FIELDS, { from: new Date(from), to: new Date(end) }),
      );
    }
    await db.exec('VACUUM ANALYZE');
    const full = await sizes(db);
    const readings = DEVICES * DAYS * 144 * FIELDS.length;
    const per = (name: string) => (full[name]! - empty[name]!) / readings;
    const today = per('device_data') + per('device_data_rollups');
    console.log(
      [
        `${kind} (load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores): ${DEVICES} devices x ${DAYS} days of 10-minute uplinks, ${FIELDS.length} fields: ${readings} readings`,
        `  today, device_data (JSONB per uplink, table + indexes): ${per('device_data').toFixed(1)} bytes per reading`,
        `  today, device_data_rollups (every width, + primary key): ${per('device_data_rollups').toFixed(1)} bytes per reading`,
        `  today, both:                                              ${today.toFixed(1)} bytes per reading (target at most ${TARGET_BYTES} on PostgreSQL)`,
        `  narrower: one row per reading (float8, btree):            ${per('bench_reading_rows').toFixed(1)} bytes per reading`,
        `  narrower: one row per uplink, float4 array (btree):       ${per('bench_uplink_arrays').toFixed(1)} bytes per reading`,
      ].join('\n'),
    );
    const figure = (name: string, value: number, extra: object = {}) =>
      recorder.add({ name: `${kind}: ${name}`, value: Number(value.toFixed(1)), unit: 'bytes', ...extra });
    figure('bytes per reading, device_data + rollups', today, {
      baseline: Number(per('bench_uplink_arrays').toFixed(1)),
      ...(kind === 'postgres' ? { target: { atMost: TARGET_BYTES } } : {}),
    });
    figure('bytes per reading, device_data', per('device_data'));
    figure('bytes per reading, rollups', per('device_data_rollups'));
    figure('bytes per reading, row per reading', per('bench_reading_rows'));
    figure('bytes per reading, row per uplink with float4 array', per('bench_uplink_arrays'));
  } finally {
    await drop();
  }
}

const recorder = startRun('storage', { kinds: KINDS.join(','), devices: DEVICES, days: DAYS });
for (const kind of KINDS) await benchKind(kind.trim(), recorder);
recorder.save();
