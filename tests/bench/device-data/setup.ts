/** The device data bench's settings, databases, seed, timing and sign-in. */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type Db, migrate, openPglite, openPostgres } from '@iot/db';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const KINDS = (process.env.BENCH_KINDS ?? 'postgres,pglite').split(',');
export const YEAR_ROWS = 365 * 144;
const STEP_MS = 10 * 60_000;
export const DEVICES = 10_000;
export const RUNS = 15;
const WARMUP = 3;
// The API's default chart resolution and the bucket it picks for a year at that resolution (6 h).
export const MAX_POINTS = 1500;
export const BUCKET_SECONDS = 6 * 3600;

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function openBenchDb(kind: string): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openPglite();
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const db = openPostgres({ url: url.toString(), max: 2 });
  await migrate(db);
  return {
    db,
    drop: async () => {
      await db.close();
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

export async function median(
  fn: () => Promise<unknown>,
  options: { runs?: number; warmup?: number; before?: () => Promise<unknown> } = {},
): Promise<number> {
  const { runs = RUNS, warmup = WARMUP, before } = options;
  for (let i = 0; i < warmup; i += 1) {
    await before?.();
    await fn();
  }
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    await before?.();
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

export async function seed(db: Db) {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO companies (name) VALUES ('Bench company') RETURNING id::int AS id`,
  );
  const companyId = rows[0]!.id;
  const { rows: dev } = await db.query<{ id: number }>(
    `INSERT INTO devices (company_id, name) VALUES ($1, 'Weather station') RETURNING id::int AS id`,
    [companyId],
  );
  const deviceId = dev[0]!.id;
  // A year ending now (on the 10-minute grid), so the newest bucket is open and read raw, as in the console.
  const from = Math.floor(Date.now() / STEP_MS) * STEP_MS - YEAR_ROWS * STEP_MS + STEP_MS;
  const started = performance.now();
  // Batches of 5,000 rows built in SQL from generate_series: the figures measure reads, not the seeding.
  for (let i = 0; i < YEAR_ROWS; i += 5000) {
    const n = Math.min(5000, YEAR_ROWS - i);
    await db.query(
      `SELECT device_data_store(jsonb_agg(x)) FROM (
       SELECT $1::bigint AS device_id, $2::bigint AS company_id,
              $3::timestamptz + make_interval(mins => 10 * g) AS created_at,
              jsonb_build_object('temperature', 10 + 15 * sin(g / 144.0 * 6.283), 'humidity', 50 + (g % 40),
                                 'battery_level', 100 - g / 600.0, 'wind_speed_kmh', (g * 7919) % 60) AS data,
              g::text AS message_id
         FROM generate_series($4::int, $5::int) AS g) x`,
      [deviceId, companyId, new Date(from).toISOString(), i, i + n - 1],
    );
  }
  const seedMs = performance.now() - started;
  await db.query(
    `INSERT INTO devices (company_id, name, serial_number, state)
     SELECT $1, 'Sensor ' || g, 'SN' || g, (ARRAY['ok','maintenance','lost','broken','disposed'])[1 + g % 5]
       FROM generate_series(1, $2::int) AS g`,
    [companyId, DEVICES - 1],
  );
  await db.query(
    `INSERT INTO device_current (device_id, company_id, data, field_times, updated_at, last_online_at,
                                 battery_level, is_active)
     SELECT id, company_id, jsonb_build_object('temperature', id % 30, 'humidity', id % 90),
            jsonb_build_object('temperature', now(), 'humidity', now()), now(),
            now() - make_interval(mins => (id % 1000)::int), id % 101, id % 3 <> 0
       FROM devices WHERE company_id = $1`,
    [companyId],
  );
  await db.query('ANALYZE');
  return {
    companyId,
    deviceId,
    range: { from: new Date(from), to: new Date(from + YEAR_ROWS * STEP_MS) },
    from,
    seedMs,
  };
}

/** Signs a fresh main user of the company in through the API and returns the cookie header. */
export async function signIn(app: FastifyInstance, db: Db, companyId: number): Promise<string> {
  const email = `bench.${randomBytes(4).toString('hex')}@example.test`;
  const password = 'Bench-Password-1!';
  await db.query(
    `INSERT INTO users (company_id, email, name, password_hash, roles, eula_accepted)
     VALUES ($1, $2, 'Bench', $3, '{ROLE_MAINUSER}', true)`,
    [companyId, email, await hash(password)],
  );
  const jar = new Map<string, string>();
  const keep = (cookies: { name: string; value: string }[]) => {
    for (const c of cookies) jar.set(c.name, c.value);
  };
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  keep((await app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' })).cookies);
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { cookie: header(), 'x-xsrf-token': jar.get('XSRF-TOKEN') ?? '' },
    payload: { email, password },
  });
  if (login.statusCode !== 200) throw new Error(`login answered ${login.statusCode}: ${login.body}`);
  keep(login.cookies);
  return header();
}
