/** Ingest in processes of its own (this bench's entry file again, with IOT_INGEST_BENCH_CHILD set). */
import { spawn } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@iot/config';
import { openPostgres } from '@iot/db';
import { createNatsEventLog } from '@iot/event-log';
import { type IngestService, startIngest } from '@iot/ingest';
import { INGEST_NODE_FLAGS } from '../lib/node-flags.js';
import { log } from './settings.js';

// ------------------------------------------------------------------------------ ingest processes
export interface ChildOptions {
  databaseUrl: string;
  mqttUrl: string;
  streamPrefix: string;
  shareGroup: string;
  clientIdPrefix: string;
  connections: number;
  window: number;
}

/** Ingest as `node apps/ingest/dist/main.js` runs it in the distributed profile, with the bench's names. */
export async function startBenchIngest(o: ChildOptions, index: number): Promise<IngestService> {
  const config = loadConfig({
    PROFILE: 'distributed',
    DATABASE_URL: o.databaseUrl,
    NATS_URL: 'nats://127.0.0.1:4222',
    MQTT_URL: o.mqttUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  const db = openPostgres({ url: o.databaseUrl, max: 10 });
  const eventLog = await createNatsEventLog({ servers: '127.0.0.1:4222', streamPrefix: o.streamPrefix });
  const ingest = await startIngest({
    config,
    db,
    log,
    eventLog,
    http: false,
    // IOT_BENCH_WRITER: storage writer options as JSON, e.g. {"concurrentWrites":1} (default: ingest's own).
    ...(process.env.IOT_BENCH_WRITER ? { storageWriter: JSON.parse(process.env.IOT_BENCH_WRITER) } : {}),
    // IOT_BENCH_PUBLISH_CALLS: the uplink publisher's log calls in flight (default: ingest's own).
    ...(process.env.IOT_BENCH_PUBLISH_CALLS
      ? { publisher: { maxCallsInFlight: Number(process.env.IOT_BENCH_PUBLISH_CALLS) } }
      : {}),
    mqtt: 'external',
    mqttExternal: {
      shareGroup: o.shareGroup,
      clientIdPrefix: `${o.clientIdPrefix}-${index}`,
      cleanSession: true,
      connections: o.connections,
      window: o.window,
    },
  });
  const stop = ingest.stop.bind(ingest);
  return Object.assign(ingest, {
    stop: async () => {
      await stop();
      await eventLog.close();
      await db.close();
    },
  });
}

/**
 * One ingest process (this file with IOT_INGEST_BENCH_CHILD set), so that the publishers' CPU and memory
 * are not the platform's: it reports its writer's committed rows every 5 ms over IPC.
 */
export async function startIngestProcess(o: ChildOptions, index: number) {
  // IOT_BENCH_CPU_PROF=<dir>: a V8 CPU profile of each ingest process, written when it stops.
  const profile = process.env.IOT_BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.IOT_BENCH_CPU_PROF}`]
    : [];
  const child = spawn(
    process.execPath,
    [
      ...profile,
      ...INGEST_NODE_FLAGS,
      ...process.execArgv,
      fileURLToPath(new URL('../ingest.bench.ts', import.meta.url)),
    ],
    {
      env: { ...process.env, IOT_INGEST_BENCH_CHILD: JSON.stringify({ ...o, index }) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const handle = { pid: child.pid ?? 0, stored: 0, writes: 0, gcMs: 0, stop: async () => {} };
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`ingest process ${index} exited with ${code}`)));
    child.on('message', (m: { ready?: boolean; stored?: number; writes?: number; gcMs?: number }) => {
      if (m.stored !== undefined) handle.stored = m.stored;
      if (m.writes !== undefined) handle.writes = m.writes;
      if (m.gcMs !== undefined) handle.gcMs = m.gcMs;
      if (m.ready) resolve();
    });
  });
  child.removeAllListeners('exit');
  handle.stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send('stop');
    await exited;
  };
  return handle;
}

export async function childMain(o: ChildOptions & { index: number }): Promise<void> {
  // Time in garbage collection (pauses on the main thread), to compare V8 heap flags
  // (IOT_BENCH_INGEST_NODE_FLAGS) more precisely than the process's CPU per uplink can.
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });
  const ingest = await startBenchIngest(o, o.index);
  let last = -1;
  const timer = setInterval(() => {
    const stored = ingest.writerStats?.stored ?? 0;
    if (stored !== last) {
      last = stored;
      process.send?.({ stored, writes: ingest.writerStats?.writes ?? 0, gcMs });
    }
  }, 5);
  process.on('message', (message) => {
    if (message !== 'stop') return;
    clearInterval(timer);
    void ingest.stop().finally(() => process.exit(0));
  });
  process.send?.({ ready: true });
}
