/**
 * The API's read path under load (issue #29): autocannon (its CLI, a child process) with 10 connections
 * against the built platform, signed in as the demo's main user, beside a bare Fastify route (a child
 * process of its own) measured in the same run as the baseline.
 *
 *   npm run bench:api
 *   npx tsx tests/bench/api.bench.ts [embedded|distributed|both=both] [seconds per route=5]
 *   IOT_BENCH_API_CPU_PROF=<dir> …   V8 CPU profiles of the platform / API processes (--cpu-prof)
 *
 * embedded: `apps/platform/dist/main.js` (what `npm start` runs) on free ports with a data directory of its
 * own (PGlite, demo data, no simulated fleet). distributed: a fresh PostgreSQL database with the demo data
 * and two `apps/api/dist/main.js` processes sharing one SESSION_SECRET; autocannon spreads its connections
 * over both. Routes: `GET /core/version` (nothing but the session), the device list page of 100 (devices
 * imported up to 100), a week of one device's data, the alarm poll (`state=open`, as the console polls).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openDb } from '@iot/db';
import { seedDemoData } from '@iot/demo-data';
import Fastify from 'fastify';
import pg from 'pg';
import { ApiSession } from '../support/api-session.js';
import { type AppProcess, startApp } from '../support/app-process.js';
import { runPlatform } from '../support/run-platform.js';
import { waitFor } from '../support/wait-for.js';
import { freePort } from './lib/mosquitto.js';
import { type RunRecorder, startRun } from './lib/results.js';

const AUTOCANNON = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = 10;
const LIST_PAGE = 100;
/** Measuring starts this long after the start (PGlite's first VACUUM ANALYZE runs 10 s after it). */
const SETTLE_MS = 15_000;
const WARM_UP_SECONDS = 1;
const MAIN_USER = 'main@demo.test';
/** What the console's browser sends (Chromium's header); `IOT_BENCH_API_ENCODING=` (empty) for none. */
const ACCEPT_ENCODING = process.env.IOT_BENCH_API_ENCODING ?? 'gzip, deflate, br, zstd';
const PASSWORD = 'DemoPass#2026';

interface Cannon {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** One autocannon run (CLI, --json) against `urls`; connections spread over them. */
async function cannon(urls: string[], seconds: number, cookie?: string): Promise<Cannon> {
  const args = [AUTOCANNON, '-c', String(CONNECTIONS), '-d', String(seconds), '-j'];
  if (cookie) args.push('-H', `cookie=${cookie}`);
  if (ACCEPT_ENCODING) args.push('-H', `accept-encoding=${ACCEPT_ENCODING}`);
  const { stdout } = await promisify(execFile)(process.execPath, [...args, ...urls], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const result = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** The baseline: a bare Fastify route answering a small JSON object, in a process of its own. */
async function serveBare(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ payload: { version: '0.0.0' } }));
  await app.listen({ host: '127.0.0.1', port: Number(process.env.IOT_API_BENCH_BARE_PORT) });
  console.log('bare listening');
}

async function startBare(): Promise<{ url: string; stop: () => Promise<unknown> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, IOT_API_BENCH_BARE_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('bare listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  return { url: `http://127.0.0.1:${port}/`, stop };
}

interface Target {
  urls: string[];
  cookie: string;
  deviceId: number;
  /** When the platform or the first API process started (Date.now()). */
  startedAt: number;
}

/** Signs in, imports devices up to a page of 100 and picks the device whose week is read. */
async function prepare(base: string): Promise<Omit<Target, 'urls' | 'startedAt'>> {
  const session = new ApiSession(base);
  const login = await session.login(MAIN_USER, PASSWORD);
  if (login.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(login.body)}`);
  const list = await session.call<{ id: number; last_online_at?: string | null }[]>(
    'GET',
    '/api/v1/core/devices',
  );
  const devices = list.body.payload ?? [];
  const missing = LIST_PAGE - devices.length;
  if (missing > 0) {
    const rows = Array.from({ length: missing }, (_, i) => `Bench device ${i + 1},BENCH-${i + 1}`);
    const imported = await session.send(
      'POST',
      '/api/v1/core/devices/import',
      `name,serial_number\n${rows.join('\n')}\n`,
      'text/csv',
    );
    if (imported.status !== 200) throw new Error(`import failed: ${JSON.stringify(imported.body)}`);
  }
  const device = devices.find((d) => d.last_online_at) ?? devices[0];
  if (!device) throw new Error('no demo device');
  const cookie = ['iot_session', 'XSRF-TOKEN']
    .map((name) => `${name}=${session.cookie(name) ?? ''}`)
    .join('; ');
  return { cookie, deviceId: device.id };
}

function routes(target: Target): { name: string; path: string }[] {
  const weekAgo = new Date(Date.now() - 7 * 24 * 3600_000).toISOString();
  return [
    { name: 'GET /core/version', path: '/api/v1/core/version' },
    { name: `device list, page of ${LIST_PAGE}`, path: `/api/v1/core/devices?limit=${LIST_PAGE}` },
    {
      name: "a week of one device's data",
      path: `/api/v1/core/data/${target.deviceId}?tsstart=${encodeURIComponent(weekAgo)}`,
    },
    { name: 'alarm poll', path: '/api/v1/core/devices/alarms?state=open' },
  ];
}

/** Each route after the bare baseline, alternating, so the machine's other load falls on both alike. */
async function measure(
  run: RunRecorder,
  profile: string,
  target: Target,
  bareUrl: string,
  seconds: number,
  targets: { trivial: number; read: number; p99: number },
) {
  // Uncounted: the first maintenance pass (10 s after start) and the first reads (plans, rollups, JIT).
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, target.startedAt + SETTLE_MS - Date.now())));
  for (const route of routes(target)) {
    const urls = target.urls.map((url) => new URL(route.path, url).href);
    await cannon(urls, WARM_UP_SECONDS, target.cookie);
  }
  for (const route of routes(target)) {
    const bare = await cannon([bareUrl], seconds);
    const ours = await cannon(
      target.urls.map((url) => new URL(route.path, url).href),
      seconds,
      target.cookie,
    );
    const trivial = route.path.endsWith('/version');
    const ratio = ours.requestsPerSecond / bare.requestsPerSecond;
    console.log(
      `${profile}: ${route.name.padEnd(30)} ${ours.requestsPerSecond.toFixed(0).padStart(6)} req/s ` +
        `p50 ${ours.p50} ms p99 ${ours.p99} ms (non-2xx ${ours.non2xx}, errors ${ours.errors}) | ` +
        `bare Fastify ${bare.requestsPerSecond.toFixed(0)} req/s p99 ${bare.p99} ms | ${ratio.toFixed(3)}x`,
    );
    if (ours.non2xx > 0 || ours.errors > 0) console.warn(`  ${route.name}: answers that were not 2xx`);
    run.add({
      name: `${profile}: ${route.name}`,
      value: Math.round(ours.requestsPerSecond),
      unit: 'requests/s',
      baseline: Math.round(bare.requestsPerSecond),
      target: { atLeast: trivial ? targets.trivial : targets.read },
    });
    run.add({
      name: `${profile}: ${route.name}: p99`,
      value: ours.p99,
      unit: 'ms',
      baseline: bare.p99,
      ...(trivial ? {} : { target: { atMost: targets.p99 } }),
    });
    run.add({ name: `${profile}: ${route.name} / bare Fastify`, value: Number(ratio.toFixed(4)), unit: 'x' });
  }
}

/** Node flags for a V8 CPU profile (not allowed in NODE_OPTIONS), written when the process exits. */
function profileFlags(name: string): string[] {
  const dir = process.env.IOT_BENCH_API_CPU_PROF;
  if (!dir) return [];
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}-\${pid}.cpuprofile`];
}

async function embedded(run: RunRecorder, bareUrl: string, seconds: number) {
  const dir = mkdtempSync(join(tmpdir(), 'iot-bench-api-'));
  const startedAt = Date.now();
  const platform = await runPlatform(
    { DATA_DIR: join(dir, 'data'), SIMULATE_DEVICES: '0', HOST: '127.0.0.1' },
    300_000,
    profileFlags('embedded'),
  );
  try {
    const base = platform.url.replace('localhost', '127.0.0.1');
    const prepared = await prepare(base);
    await measure(run, 'embedded', { ...prepared, urls: [base], startedAt }, bareUrl, seconds, {
      trivial: 5000,
      read: 1000,
      p99: 50,
    });
  } finally {
    await platform.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Two API processes on a fresh PostgreSQL database seeded with the demo data. */
async function distributed(run: RunRecorder, bareUrl: string, seconds: number) {
  const database = `iot_bench_api_${process.pid}`;
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${database}`;
  const apis: AppProcess[] = [];
  try {
    const ports = [await freePort(), await freePort()];
    const env = (port: number) => ({
      PROFILE: 'distributed',
      DATABASE_URL: url.href,
      SESSION_SECRET: 'bench-api-secret-bench-api-secret',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    });
    const apiArgs = (i: number) => [...profileFlags(`api-${i}`), 'apps/api/dist/main.js'];
    // The first creates and migrates the database; the demo data goes in before the second starts.
    const startedAt = Date.now();
    apis.push(startApp('api-1', apiArgs(1), env(ports[0] ?? 0)));
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);
    const ready = (base: string) =>
      waitFor(`${base} ready`, 120_000, async () =>
        (await fetch(`${base}/health/ready`).catch(() => undefined))?.ok ? true : undefined,
      );
    await ready(urls[0] ?? '');
    const db = await openDb({ DATABASE_URL: url.href });
    await seedDemoData(db);
    await db.close();
    apis.push(startApp('api-2', apiArgs(2), env(ports[1] ?? 0)));
    await ready(urls[1] ?? '');
    const prepared = await prepare(urls[0] ?? '');
    await measure(run, 'distributed, 2 API processes', { ...prepared, urls, startedAt }, bareUrl, seconds, {
      trivial: 3000,
      read: 3000,
      p99: 50,
    });
  } finally {
    await Promise.all(apis.map((api) => api.stop()));
    await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

async function main() {
  const profiles = process.argv[2] ?? 'both';
  const seconds = Number(process.argv[3] ?? 5);
  const run = startRun('api', { profiles, seconds, connections: CONNECTIONS });
  const bare = await startBare();
  try {
    if (profiles === 'embedded' || profiles === 'both') await embedded(run, bare.url, seconds);
    if (profiles === 'distributed' || profiles === 'both') await distributed(run, bare.url, seconds);
  } finally {
    await bare.stop();
  }
  run.save();
}

if (process.env.IOT_API_BENCH_BARE_PORT) await serveBare();
else await main();
