/**
 * Uplink ingestion end to end over MQTT: sustained uplinks per second, latency from publish to stored,
 * peak memory, and a 3x overload with its backlog, drain time and loss check; each profile beside a
 * baseline of batched inserts of the same rows straight into the same database.
 *
 *   npx tsx tests/bench/ingest.bench.ts [embedded|distributed|both] [devices=2000] [phase seconds=8]
 *     [ingest MQTT connections=4 (distributed)] [Mosquitto URL | own=own] [ingest PUBACK window=1000]
 *     [ingest processes=1] [publisher=raw|mqttjs (anywhere; or IOT_BENCH_PUBLISHER; default raw)]
 *
 * Publishers (lib/publishers.ts): `raw` speaks MQTT 3.1.1 on plain sockets with each topic's PUBLISH header
 * encoded once (mqtt-packet), so the load generator takes little of the 2 cores it shares with the
 * platform; `mqttjs` is mqtt.js, as before. Both feed the same callback-driven loops (a window of QoS 1
 * publishes per connection, the next one sent as a PUBACK arrives). The CPU of each process per uplink is
 * printed for the publishers-alone, MQTT-alone and sustained phases (lib/cpu.ts).
 *
 * `own` (default): the bench starts /usr/sbin/mosquitto with the shipped infra/mosquitto/mosquitto.conf on a
 * free loopback port (persistence in a temporary directory), so the figure is the shipped configuration's.
 *
 * (a) embedded: the whole platform in this process (startPlatform: PGlite, embedded aedes broker,
 *     in-process log, storage writer, rules worker, notifier); publishers authenticate as devices, so
 *     they open one connection per device for CONNECTIONS devices and send round robin.
 * (b) distributed: ingest in a process of its own, as infra/docker-compose.yml runs it (more with the
 *     `ingest processes` argument; 0 runs it in this process), against the machine's PostgreSQL (a fresh
 *     database), Mosquitto (shared subscription, unique group) and NATS JetStream (unique stream, deleted
 *     afterwards); publishers connect anonymously to Mosquitto and publish to all devices' topics round
 *     robin.
 *
 * "Stored" is the storage writer's committed row counter (read every 5 ms in this process), so latency is
 * publish -> committed, matched in order (the n-th uplink published is taken as the n-th stored; within a
 * sampling step of 5 ms that is exact enough for p50/p99). Loss is checked by counting rows in SQL.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@iot/config';
import { type Db, migrate, openPostgres } from '@iot/db';
import { createNatsEventLog, type EventLog, type NatsEventLog } from '@iot/event-log';
import { type IngestService, startIngest, UPLINKS_TOPIC } from '@iot/ingest';
import { startPlatform } from '@iot/platform';
import { createLogger } from '@iot/runtime';
import { buildUplink, profileOf, type SimDevice } from '@iot/simulator';
import mqtt from 'mqtt';
import pg from 'pg';
import { type CpuReport, cpuPerUplinkText, startCpu } from './lib/cpu.js';
import { startOwnMosquitto } from './lib/mosquitto.js';
import { INGEST_NODE_FLAGS } from './lib/node-flags.js';
import {
  openConnection,
  type PublisherKind,
  type PublishTemplate,
  type UplinkConnection,
} from './lib/publishers.js';
import { settleStatistics } from './lib/statistics.js';
import { sleep, waitUntil } from './lib/wait.js';

/** `publisher=raw|mqttjs` anywhere among the arguments (or IOT_BENCH_PUBLISHER); the rest are positional. */
const args = process.argv.slice(2).filter((a) => !a.startsWith('publisher='));
const PUBLISHER = (process.argv.find((a) => a.startsWith('publisher='))?.slice('publisher='.length) ??
  process.env.IOT_BENCH_PUBLISHER ??
  'raw') as PublisherKind;
if (PUBLISHER !== 'raw' && PUBLISHER !== 'mqttjs') throw new Error(`publisher=${PUBLISHER}: raw or mqttjs`);
const which = args[0] ?? 'both';
const DEVICES = Number(args[1] ?? 2000);
const PHASE_S = Number(args[2] ?? 8);
const CONNECTIONS_EMBEDDED = 100;
const CONNECTIONS_MOSQUITTO = 8;
const WINDOW = 64; // QoS 1 publishes in flight per connection in the closed-loop phase

/**
 * Open-loop phases: QoS 1 publishes a connection may have unacknowledged, as a device's in-flight window
 * (100 connections x 1000 = the in-process log's capacity). Without a bound the publishers' own queues in
 * this process would dominate the memory figure.
 */
const OPEN_LOOP_WINDOW = 1000;
const INGEST_MQTT_CONNECTIONS = Number(args[3] ?? 4);
/** `own`: a Mosquitto started here with the shipped configuration; else a broker URL (e.g. the machine's). */
const MOSQUITTO = args[4] ?? 'own';
const INGEST_WINDOW = Number(args[5] ?? 1000);
/**
 * Ingest processes beside the bench's (each front door + storage writer); 0 runs ingest in the bench's.
 * One by default, as the shipped deployment runs it: on these 2 cores a second process only adds work
 * (each caches every device and publishes to every partition, each writer commits half as much per
 * transaction): 21k to 24k against 30k uplinks/s (tests/bench/README.md, "One ingest process").
 */
const INGEST_PROCESSES = Number(args[6] ?? 1);
/**
 * The closed loop also keeps at most this many uplinks published but not yet stored. Mosquitto acknowledges
 * a publish itself (no back-pressure reaches the publisher from ingest) and, with its default
 * max_queued_messages 1000 per subscriber connection, drops the rest: on another broker the loop stays
 * below 4 x 1000. The shipped configuration queues far more.
 */
const MAX_UNSTORED = MOSQUITTO === 'own' ? 20_000 : 3000;
const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';
const log = createLogger({ level: 'warn', name: 'bench' });

// ---------------------------------------------------------------------------------------------- memory
function rssOfPid(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
function pidsOf(name: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', name]).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
/** Peak RSS of this process and of the named server processes while `fn` runs. */
class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  peakSelf = 0;
  peakServers = 0;
  /** Server processes by name (every process of that name) or by pid. */
  constructor(private readonly servers: Array<string | number>) {}
  start(): void {
    const pids = this.servers.flatMap((server) => (typeof server === 'number' ? [server] : pidsOf(server)));
    const sample = () => {
      this.peakSelf = Math.max(this.peakSelf, process.memoryUsage.rss());
      this.peakServers = Math.max(
        this.peakServers,
        pids.reduce((sum, pid) => sum + rssOfPid(pid), 0),
      );
    };
    sample();
    this.timer = setInterval(sample, 100);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}
const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;

// --------------------------------------------------------------------------------------------- devices
type BenchDevice = SimDevice;

/** Devices without a driver (JSON uplinks with their own message id), tokens set, created in one statement. */
async function createDevices(db: Db, n: number): Promise<{ companyId: number; devices: BenchDevice[] }> {
  const { rows: c } = await db.query<{ id: number }>(
    "INSERT INTO companies (name) VALUES ('Bench ' || md5(random()::text)) RETURNING id::int AS id",
  );
  const companyId = c[0]?.id;
  if (companyId === undefined) throw new Error('no company');
  const uuids = Array.from({ length: n }, () => randomUUID());
  const tokens = new Map<string, string>(uuids.map((u) => [u, randomBytes(16).toString('hex')]));
  const hashes = uuids.map((u) =>
    createHash('sha256')
      .update(tokens.get(u) ?? '')
      .digest('hex'),
  );
  const { rows } = await db.query<{ id: number; uuid: string; name: string }>(
    `INSERT INTO devices (company_id, name, uuid, credentials_hash)
     SELECT $1, 'bench ' || t.i, t.u::uuid, t.h FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(u, h, i)
     RETURNING id::int AS id, uuid::text AS uuid, name`,
    [companyId, uuids, hashes],
  );
  await settleStatistics(db);
  return {
    companyId,
    devices: rows.map((r) => ({ ...r, token: tokens.get(r.uuid) ?? '', device_type: null, driver_id: null })),
  };
}

// -------------------------------------------------------------------------------------------- baseline
/** Batched inserts of the same kind of rows straight into device_data: 1000 per statement, for `seconds`. */
async function baseline(db: Db, companyId: number, devices: BenchDevice[], seconds: number) {
  const start = performance.now();
  const past = Date.now() - 30 * 86_400_000;
  let rows = 0;
  const state = { clicks: 0, startedAt: Date.now(), rnd: Math.random };
  while (performance.now() - start < seconds * 1000) {
    const batch = [];
    for (let i = 0; i < 1000; i++) {
      const device = devices[(rows + i) % devices.length] as BenchDevice;
      const uplink = buildUplink(device, profileOf(device, (rows + i) % devices.length), state, Date.now());
      batch.push({
        device_id: device.id,
        company_id: companyId,
        created_at: new Date(past + rows + i).toISOString(),
        data: uplink.reading,
        message_id: uplink.messageId,
      });
    }
    await db.query(
      `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
       SELECT r.device_id, r.company_id, r.created_at, r.data, r.message_id
       FROM jsonb_to_recordset($1::jsonb) AS r(device_id bigint, company_id bigint, created_at timestamptz,
                                              data jsonb, message_id text)`,
      [JSON.stringify(batch)],
    );
    rows += batch.length;
  }
  const ms = performance.now() - start;
  return { rows, perSecond: (rows / ms) * 1000 };
}

// ------------------------------------------------------------------------------------------ publishers
/** Topics a publisher sends to: the devices' uplinks, the MQTT-alone phase's, and topics nobody reads. */
type TopicKind = 'up' | 'alone' | 'void';
const TOPIC_PREFIX: Record<TopicKind, string> = {
  up: 'devices/',
  alone: 'bench-mqtt-alone/',
  void: 'bench-void/',
};

interface Publisher {
  conn: UplinkConnection;
  /** Devices this connection publishes for (one on the embedded broker, many on Mosquitto). */
  devices: BenchDevice[];
  /** Per topic kind, one template per device (encoded once, on first use). */
  templates: Partial<Record<TopicKind, PublishTemplate[]>>;
  next: number;
}

async function openPublishers(url: string, devices: BenchDevice[], embedded: boolean): Promise<Publisher[]> {
  const open = async (clientId: string, mine: BenchDevice[], auth?: BenchDevice): Promise<Publisher> => ({
    conn: await openConnection(PUBLISHER, {
      url,
      clientId,
      ...(auth ? { username: auth.uuid, password: auth.token } : {}),
    }),
    devices: mine,
    templates: {},
    next: 0,
  });
  if (embedded)
    return Promise.all(
      devices
        .slice(0, CONNECTIONS_EMBEDDED)
        .map((d) => open(`bench-pub-${randomBytes(4).toString('hex')}`, [d], d)),
    );
  return Promise.all(
    Array.from({ length: CONNECTIONS_MOSQUITTO }, (_, c) =>
      open(
        `bench-pub-${randomBytes(4).toString('hex')}`,
        devices.filter((_d, i) => i % CONNECTIONS_MOSQUITTO === c),
      ),
    ),
  );
}

const uplinkState = { clicks: 0, startedAt: Date.now(), rnd: Math.random };

/**
 * Builds the next device's uplink (JSON with a fresh message id and time), calls `before` (the publish
 * timestamp) and publishes it with QoS 1; `done` runs on the PUBACK.
 */
function publishNext(p: Publisher, kind: TopicKind, before: () => void, done: (error?: Error) => void): void {
  const index = p.next % p.devices.length;
  const device = p.devices[index] as BenchDevice;
  p.next += 1;
  let templates = p.templates[kind];
  if (!templates) {
    templates = p.devices.map((d) => p.conn.template(`${TOPIC_PREFIX[kind]}${d.uuid}/up`));
    p.templates[kind] = templates;
  }
  const uplink = buildUplink(device, profileOf(device, device.id), uplinkState, Date.now());
  before();
  p.conn.publish(templates[index] as PublishTemplate, uplink.body, done);
}

const noop = () => {};

/**
 * Closed loop: every connection keeps `window` QoS 1 publishes in flight until `endAt` (performance.now()),
 * publishing the next uplink as each PUBACK arrives; while `canSend()` is false it waits 2 ms. Resolves
 * when every connection has its publishes acknowledged. Returns publishes failed (connection errors).
 */
function closedLoop(
  publishers: Publisher[],
  kind: TopicKind,
  endAt: number,
  window: number,
  canSend: () => boolean,
  before: () => void,
  onAck: () => void,
): Promise<number> {
  return new Promise((resolve) => {
    let running = publishers.length;
    let failed = 0;
    if (running === 0) resolve(0);
    for (const p of publishers) {
      let waiting = false;
      let finished = false;
      let broken = false;
      const acked = (error?: Error) => {
        if (error) {
          failed += 1;
          broken = true; // the connection is gone: let its in-flight publishes fail, send no more
        } else onAck();
        pump();
      };
      const pump = () => {
        if (waiting || finished) return;
        let now = performance.now();
        while (!broken && p.conn.inflight < window && now < endAt) {
          if (!canSend()) {
            waiting = true;
            setTimeout(() => {
              waiting = false;
              pump();
            }, 2);
            return;
          }
          publishNext(p, kind, before, acked);
          now = performance.now();
        }
        if ((now >= endAt || broken) && p.conn.inflight === 0) {
          finished = true;
          running -= 1;
          if (running === 0) resolve(failed);
        }
      };
      pump();
    }
  });
}

/** CPU groups besides this process: the platform's processes, the brokers, PostgreSQL (all backends). */
function cpuGroups(t: Target): Record<string, number[]> {
  return {
    ...(t.ingestPids.length ? { ingest: t.ingestPids } : {}),
    ...(t.mosquittoPid
      ? { mosquitto: [t.mosquittoPid] }
      : t.embedded
        ? {}
        : { mosquitto: pidsOf('mosquitto') }),
    ...(t.embedded ? {} : { nats: pidsOf('nats-server'), postgres: pidsOf('postgres') }),
  };
}
function cpuText(t: Target, report: CpuReport, uplinks: number): string {
  return cpuPerUplinkText(report, uplinks, {
    self: t.embedded ? 'bench process (platform + publishers)' : `bench process (${PUBLISHER} publishers)`,
    ingest: 'ingest processes',
    mosquitto: 'Mosquitto',
    nats: 'NATS',
    postgres: 'PostgreSQL (all backends)',
  });
}

// -------------------------------------------------------------------------------------- stored tracking
/** Follows the writer's committed-row counter and turns it into publish -> stored latencies. */
class StoredTracker {
  readonly publishedAt: number[] = [];
  readonly latencies: number[] = [];
  private matched = 0;
  private timer: NodeJS.Timeout | undefined;
  lastStoredAt = 0;
  constructor(
    private readonly stored: () => number,
    private readonly base: number,
  ) {}
  get count(): number {
    return this.stored() - this.base;
  }
  start(): void {
    this.timer = setInterval(() => {
      const now = performance.now();
      const n = Math.min(this.count, this.publishedAt.length);
      if (n > this.matched) this.lastStoredAt = now;
      for (; this.matched < n; this.matched++)
        this.latencies.push(now - (this.publishedAt[this.matched] ?? now));
    }, 5);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Target {
  name: string;
  db: Db;
  companyId: number;
  devices: BenchDevice[];
  /** Rows the storage writer(s) committed so far. */
  stored: () => number;
  /**
   * The storage writers' transactions so far: uplinks per transaction says how far the per-device
   * statements (latest values, device status) are shared by several uplinks of a device.
   */
  writes: () => number;
  /** Garbage collection in the ingest processes so far, ms (0 when ingest runs in the bench's process). */
  gcMs: () => number;
  /** The topic ingest publishes uplinks to. */
  topic: string;
  /** Ingest processes started by the bench (their RSS is the platform's); none when ingest runs in here. */
  ingestPids: number[];
  eventLog: EventLog;
  mqttUrl: string;
  embedded: boolean;
  servers: Array<string | number>;
  /** The broker the publishers send to, when it is a Mosquitto process here (for its CPU). */
  mosquittoPid?: number;
}

/**
 * Waits for the next full second: rows are stored with the second of receipt, so a phase that starts on a
 * fresh second counts only its own rows (the previous phase has drained by then).
 */
async function nextSecond(): Promise<Date> {
  await sleep(1000 - (Date.now() % 1000) + 5);
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

async function countSince(db: Db, companyId: number, since: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM device_data WHERE company_id = $1 AND created_at >= $2',
    [companyId, since],
  );
  return rows[0]?.n ?? 0;
}

/** Closed loop: every connection keeps WINDOW QoS 1 publishes in flight for `seconds`. */
async function sustained(t: Target, publishers: Publisher[], seconds: number) {
  const since = await nextSecond();
  const tracker = new StoredTracker(t.stored, t.stored());
  const rss = new RssSampler(t.servers);
  const platformRss = new RssSampler(t.ingestPids);
  rss.start();
  platformRss.start();
  tracker.start();
  const start = performance.now();
  const end = start + seconds * 1000;
  let accepted = 0;
  const writesBefore = t.writes();
  const gcBefore = t.gcMs();
  const cpu = startCpu(cpuGroups(t));
  const failed = await closedLoop(
    publishers,
    'up',
    end,
    WINDOW,
    () => tracker.publishedAt.length - tracker.count < MAX_UNSTORED,
    () => tracker.publishedAt.push(performance.now()),
    () => {
      accepted += 1;
    },
  );
  const published = tracker.publishedAt.length;
  await waitUntil(() => tracker.count >= accepted, 20_000);
  const cpuReport = cpu();
  await sleep(20);
  tracker.stop();
  rss.stop();
  platformRss.stop();
  const storedSql = await countSince(t.db, t.companyId, since);
  const writes = t.writes() - writesBefore;
  const gcMs = t.gcMs() - gcBefore;
  const duration = (tracker.lastStoredAt - start) / 1000;
  const sorted = [...tracker.latencies].sort((a, b) => a - b);
  return {
    published,
    accepted,
    failed,
    cpu: cpuReport,
    writes,
    gcMs,
    stored: tracker.count,
    storedSql,
    perSecond: tracker.count / duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    peakSelf: rss.peakSelf,
    peakServers: rss.peakServers,
    peakIngest: platformRss.peakServers,
  };
}

/**
 * Open loop at `rate` uplinks/s for `seconds`, in-flight unbounded: the platform's back-pressure is all that
 * holds it. Also gives the publish -> stored latency at that rate.
 */
async function openLoop(t: Target, publishers: Publisher[], rate: number, seconds: number) {
  const since = await nextSecond();
  const base = t.stored();
  const tracker = new StoredTracker(t.stored, base);
  tracker.start();
  let maxPending = 0;
  const rss = new RssSampler(t.servers);
  const platformRss = new RssSampler(t.ingestPids);
  rss.start();
  platformRss.start();
  let maxDepth = 0;
  let maxLag = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      maxDepth = Math.max(maxDepth, await t.eventLog.depth(t.topic));
      maxLag = Math.max(maxLag, await t.eventLog.lag(t.topic, 'storage-writer'));
      // Once a second: lag() on NATS reads the headers of every pending message (packs count as their records).
      await sleep(1000);
    }
  })();
  let published = 0;
  let accepted = 0;
  let failed = 0;
  let pending = 0;
  const before = () => tracker.publishedAt.push(performance.now());
  const acked = (error?: Error) => {
    pending -= 1;
    if (error) failed += 1;
    else accepted += 1;
  };
  const start = performance.now();
  let cursor = 0;
  let slots = 0;
  let heldBack = 0;
  while (performance.now() - start < seconds * 1000) {
    const due = Math.floor(((performance.now() - start) * rate) / 1000) - slots;
    for (let i = 0; i < due; i++) {
      slots += 1;
      const p = publishers[cursor++ % publishers.length] as Publisher;
      if (p.conn.inflight >= OPEN_LOOP_WINDOW) {
        heldBack += 1; // the device's window is full: the platform's back-pressure holds it back
        continue;
      }
      published += 1;
      pending += 1;
      publishNext(p, 'up', before, acked);
    }
    maxPending = Math.max(maxPending, pending);
    await sleep(5);
  }
  const sendSeconds = (performance.now() - start) / 1000;
  const publishEnd = performance.now();
  // Acknowledgements and drain share one 20 s bound, so the phase stays bounded in time.
  const deadline = publishEnd + 20_000;
  await waitUntil(() => pending === 0, deadline - performance.now());
  const ackedAt = performance.now();
  const drained = await waitUntil(async () => t.stored() - base >= accepted, deadline - performance.now());
  const drainMs = performance.now() - publishEnd;
  sampling = false;
  await sampler;
  rss.stop();
  platformRss.stop();
  await sleep(50);
  tracker.stop();
  const sorted = [...tracker.latencies].sort((a, b) => a - b);
  const storedSql = await countSince(t.db, t.companyId, since);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    maxPending,
    rate,
    offeredPerSecond: slots / sendSeconds,
    publishedPerSecond: published / sendSeconds,
    heldBack,
    published,
    accepted,
    failed,
    stored: t.stored() - base,
    storedSql,
    maxDepth,
    maxLag,
    ackWaitMs: ackedAt - publishEnd,
    drainMs,
    drained,
    peakSelf: rss.peakSelf,
    peakServers: rss.peakServers,
    peakIngest: platformRss.peakServers,
  };
}

// -------------------------------------------------------------------------------------------- profiles
async function embeddedTarget(): Promise<{ target: Target; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-'));
  const config = loadConfig({
    PORT: '0',
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_DATA: 'false',
    SIMULATE_DEVICES: '0',
    LOG_LEVEL: 'warn',
  });
  const platform = await startPlatform({ config, log });
  const ingest = platform.services.find((s) => s.name === 'ingest') as IngestService;
  const { companyId, devices } = await createDevices(platform.db, DEVICES);
  return {
    target: {
      name: 'embedded (PGlite, aedes, in-process log)',
      db: platform.db,
      companyId,
      devices,
      stored: () => ingest.writerStats?.stored ?? 0,
      writes: () => ingest.writerStats?.writes ?? 0,
      gcMs: () => 0,
      topic: ingest.topic,
      ingestPids: [],
      eventLog: ingest.eventLog,
      mqttUrl: `mqtt://127.0.0.1:${ingest.mqttPort}`,
      embedded: true,
      servers: [],
    },
    close: async () => {
      for (const s of [...platform.services].reverse()) await s.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function distributedTarget(): Promise<{ target: Target; close: () => Promise<void> }> {
  const own = MOSQUITTO === 'own' ? await startOwnMosquitto() : undefined;
  const mqttUrl = own?.url ?? MOSQUITTO;
  const suffix = randomBytes(4).toString('hex');
  const dbName = `bench_ingest_${suffix}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = `postgres://postgres@127.0.0.1:5432/${dbName}`;
  const db = openPostgres({ url, max: 10 });
  await migrate(db);
  const streamPrefix = `bench_${suffix}_`;
  const eventLog = await createNatsEventLog({ servers: '127.0.0.1:4222', streamPrefix });
  const childOptions: ChildOptions = {
    databaseUrl: url,
    mqttUrl,
    streamPrefix,
    shareGroup: `bench_${suffix}`,
    clientIdPrefix: `bench-${suffix}`,
    connections: INGEST_MQTT_CONNECTIONS,
    window: INGEST_WINDOW,
  };
  let stored: () => number;
  let writes: () => number;
  let gcMs: () => number = () => 0;
  let topic: string;
  let stopIngest: () => Promise<void>;
  let ingestPids: number[] = [];
  if (INGEST_PROCESSES === 0) {
    const ingest = await startBenchIngest(childOptions, 0);
    stored = () => ingest.writerStats?.stored ?? 0;
    writes = () => ingest.writerStats?.writes ?? 0;
    topic = ingest.topic;
    stopIngest = () => ingest.stop();
  } else {
    const children = await Promise.all(
      Array.from({ length: INGEST_PROCESSES }, (_, index) => startIngestProcess(childOptions, index)),
    );
    stored = () => children.reduce((sum, child) => sum + child.stored, 0);
    writes = () => children.reduce((sum, child) => sum + child.writes, 0);
    gcMs = () => children.reduce((sum, child) => sum + child.gcMs, 0);
    topic = UPLINKS_TOPIC;
    stopIngest = async () => {
      await Promise.all(children.map((child) => child.stop()));
    };
    ingestPids = children.map((child) => child.pid);
  }
  const { companyId, devices } = await createDevices(db, DEVICES);
  return {
    target: {
      name: 'distributed (PostgreSQL, Mosquitto, NATS JetStream)',
      db,
      companyId,
      devices,
      stored,
      writes,
      gcMs,
      topic,
      ingestPids,
      eventLog,
      mqttUrl,
      embedded: false,
      servers: [own?.pid ?? 'mosquitto', 'nats-server'],
      ...(own ? { mosquittoPid: own.pid } : {}),
    },
    close: async () => {
      await stopIngest();
      await eventLog.deleteTopic(topic).catch(() => {});
      await eventLog.close();
      await db.close();
      await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
      await admin.end();
      await own?.stop();
    },
  };
}

// ------------------------------------------------------------------------------ ingest processes
interface ChildOptions {
  databaseUrl: string;
  mqttUrl: string;
  streamPrefix: string;
  shareGroup: string;
  clientIdPrefix: string;
  connections: number;
  window: number;
}

/** Ingest as `node apps/ingest/dist/main.js` runs it in the distributed profile, with the bench's names. */
async function startBenchIngest(o: ChildOptions, index: number): Promise<IngestService> {
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
async function startIngestProcess(o: ChildOptions, index: number) {
  // IOT_BENCH_CPU_PROF=<dir>: a V8 CPU profile of each ingest process, written when it stops.
  const profile = process.env.IOT_BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.IOT_BENCH_CPU_PROF}`]
    : [];
  const child = spawn(
    process.execPath,
    [...profile, ...INGEST_NODE_FLAGS, ...process.execArgv, fileURLToPath(import.meta.url)],
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

async function childMain(o: ChildOptions & { index: number }): Promise<void> {
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

/**
 * The MQTT path alone, the ceiling of what ingest can receive here: the same publishers, the same closed
 * loop (64 QoS 1 publishes in flight per connection) and as many subscriber connections as ingest has in
 * a share group, whose mqtt.js clients acknowledge at once and store nothing. Topics `bench-mqtt-alone/...`,
 * which ingest does not subscribe to.
 */
async function mqttAlone(t: Target, publishers: Publisher[], subscribers: number, seconds: number) {
  const url = t.mqttUrl;
  const group = `bench_alone_${randomBytes(3).toString('hex')}`;
  let received = 0;
  const subs = await Promise.all(
    Array.from({ length: subscribers }, async () => {
      const client = await mqtt.connectAsync(url, { reconnectPeriod: 0, protocolVersion: 5 });
      client.on('message', () => {
        received += 1;
      });
      await client.subscribeAsync(`$share/${group}/bench-mqtt-alone/+/up`, { qos: 1 });
      return client;
    }),
  );
  const start = performance.now();
  let published = 0;
  const cpu = startCpu(cpuGroups(t));
  await closedLoop(
    publishers,
    'alone',
    start + seconds * 1000,
    WINDOW,
    () => published - received < MAX_UNSTORED,
    () => {
      published += 1;
    },
    noop,
  );
  await waitUntil(() => received >= published, 10_000);
  const cpuReport = cpu();
  const perSecond = (received / (performance.now() - start)) * 1000;
  await Promise.all(subs.map((c) => c.endAsync()));
  return { perSecond, published, received, cpu: cpuReport };
}

/**
 * The publishers alone: the same closed loop to topics nobody subscribes to, so the broker acknowledges
 * and drops; this process's CPU per uplink is the load generator's own cost.
 */
async function publishersAlone(t: Target, publishers: Publisher[], seconds: number) {
  const start = performance.now();
  let acknowledged = 0;
  const cpu = startCpu(cpuGroups(t));
  await closedLoop(
    publishers,
    'void',
    start + seconds * 1000,
    WINDOW,
    () => true,
    noop,
    () => {
      acknowledged += 1;
    },
  );
  const cpuReport = cpu();
  return { perSecond: (acknowledged / cpuReport.wallMs) * 1000, acknowledged, cpu: cpuReport };
}

/** The event log alone: records/s through publish (16 publishes of 100 records in flight), no consumer. */
async function logAlone(eventLog: EventLog, topic: string, seconds: number) {
  const start = performance.now();
  let records = 0;
  const record = { key: '1', value: { v: 1, kind: 'uplink', data: { temperature: 21.5, humidity: 40 } } };
  await Promise.all(
    Array.from({ length: 16 }, async (_, w) => {
      while (performance.now() - start < seconds * 1000) {
        await eventLog.publish(
          topic,
          Array.from({ length: 100 }, (_r, i) => ({ ...record, key: String(w * 100 + i) })),
        );
        records += 100;
      }
    }),
  );
  return (records / (performance.now() - start)) * 1000;
}

// ------------------------------------------------------------------------------------------------- run
const results: Array<Record<string, string>> = [];
const fmt = (n: number) => Math.round(n).toLocaleString('en');

/** Peak RSS: ingest processes (the platform), the bench process, the brokers. */
function rssText(t: Target, r: { peakSelf: number; peakServers: number; peakIngest: number }): string {
  const parts = [
    ...(t.ingestPids.length ? [`ingest processes ${mb(r.peakIngest)}`] : []),
    `bench process ${mb(r.peakSelf)}${t.ingestPids.length ? ' (publishers)' : ''}`,
    ...(t.servers.length ? [`brokers ${mb(r.peakServers)}`] : []),
  ];
  return parts.join(', ');
}

async function runProfile(open: () => Promise<{ target: Target; close: () => Promise<void> }>) {
  const { target, close } = await open();
  try {
    console.log(`\n== ${target.name}: ${target.devices.length} devices`);
    if (!target.embedded)
      console.log(
        `broker: ${MOSQUITTO === 'own' ? `own Mosquitto with infra/mosquitto/mosquitto.conf at ${target.mqttUrl}` : target.mqttUrl}; ` +
          `ingest: ${INGEST_PROCESSES || 'in the bench process, 1'} process(es) x ${INGEST_MQTT_CONNECTIONS} MQTT connections, PUBACK window ${INGEST_WINDOW}, ` +
          `node flags ${INGEST_PROCESSES ? INGEST_NODE_FLAGS.join(' ') || 'none' : 'those of the bench process'}`,
      );
    const base = await baseline(target.db, target.companyId, target.devices, Math.min(PHASE_S, 8));
    console.log(
      `baseline batched INSERT (1000 rows per statement): ${fmt(base.perSecond)} rows/s (${fmt(base.rows)} rows)`,
    );
    let logRate = Number.NaN;
    if (!target.embedded) {
      const probe = `bench_probe_${randomBytes(3).toString('hex')}`;
      logRate = await logAlone(target.eventLog, probe, 5);
      await (target.eventLog as NatsEventLog).deleteTopic(probe).catch(() => {});
      console.log(
        `NATS JetStream log alone (publish, 16 x 100 records in flight): ${fmt(logRate)} records/s`,
      );
    }
    const publishers = await openPublishers(target.mqttUrl, target.devices, target.embedded);
    console.log(
      `publishers: ${PUBLISHER} (${publishers.length} connections, QoS 1, ${WINDOW} in flight each in closed loops)`,
    );
    let mqttRate = Number.NaN;
    let pubAloneRate = Number.NaN;
    let pubAloneCpu = Number.NaN;
    if (!target.embedded) {
      const a = await publishersAlone(target, publishers, 4);
      pubAloneRate = a.perSecond;
      pubAloneCpu = (a.cpu.us.self ?? 0) / a.acknowledged;
      console.log(
        `publishers alone (same loop, topics nobody reads, the broker acknowledges and drops): ` +
          `${fmt(a.perSecond)} publishes/s acknowledged; CPU: ${cpuText(target, a.cpu, a.acknowledged)}`,
      );
      const subscribers = INGEST_MQTT_CONNECTIONS * Math.max(1, INGEST_PROCESSES);
      const m = await mqttAlone(target, publishers, subscribers, 5);
      mqttRate = m.perSecond;
      console.log(
        `MQTT alone (same publishers and loop, ${subscribers} subscribers acknowledging at once): ` +
          `${fmt(m.perSecond)} msg/s (${fmt(m.received)} of ${fmt(m.published)} received); ` +
          `CPU: ${cpuText(target, m.cpu, m.received).replace('publishers)', 'publishers and the mqtt.js subscribers)')}`,
      );
    }
    // A short warm-up so device lookups are cached and the JIT has run.
    await sustained(target, publishers, 2);
    const s = await sustained(target, publishers, PHASE_S);
    console.log(
      `sustained: ${fmt(s.perSecond)} uplinks/s stored; published ${fmt(s.published)}, accepted ${fmt(s.accepted)}, ` +
        `stored ${fmt(s.stored)} (SQL ${fmt(s.storedSql)}); p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms; ` +
        `peak RSS ${rssText(target, s)}${s.failed ? `; ${fmt(s.failed)} publishes failed` : ''}`,
    );
    console.log(`sustained CPU: ${cpuText(target, s.cpu, s.stored)}`);
    if (s.writes > 0)
      console.log(
        `sustained writes: ${fmt(s.writes)} storage writer transactions, ${fmt(s.stored / s.writes)} uplinks each` +
          (s.gcMs > 0
            ? `; garbage collection in the ingest processes ${((s.gcMs * 1000) / s.stored).toFixed(1)} us per uplink`
            : ''),
      );
    const l = await openLoop(target, publishers, Math.round(0.5 * s.perSecond), Math.min(PHASE_S, 6));
    console.log(
      `latency at half the sustained rate (${fmt(l.offeredPerSecond)}/s): p50 ${fmt(l.p50)} ms, p99 ${fmt(l.p99)} ms; ` +
        `stored ${fmt(l.stored)} of ${fmt(l.accepted)} accepted`,
    );
    const o = await openLoop(target, publishers, Math.round(3 * s.perSecond), PHASE_S);
    console.log(
      `overload 3x (${fmt(o.rate)}/s asked, ${fmt(o.offeredPerSecond)}/s offered, ${fmt(o.publishedPerSecond)}/s published, ` +
        `${fmt(o.heldBack)} held back by full windows): published ${fmt(o.published)}, ` +
        `accepted ${fmt(o.accepted)}, failed ${fmt(o.failed)}, stored ${fmt(o.stored)} (SQL ${fmt(o.storedSql)}); ` +
        `max unacknowledged publishes ${fmt(o.maxPending)}, max log depth ${fmt(o.maxDepth)}, max writer lag ${fmt(o.maxLag)}; PUBACKs done ${fmt(o.ackWaitMs)} ms ` +
        `and drained ${fmt(o.drainMs)} ms after publishing stopped${o.drained ? '' : ' (NOT drained in 20 s)'}; ` +
        `peak RSS ${rssText(target, o)}`,
    );
    results.push({
      profile: target.name,
      publisher: PUBLISHER,
      baseline: `${fmt(base.perSecond)}/s`,
      'log alone': Number.isNaN(logRate) ? '-' : `${fmt(logRate)}/s`,
      'publishers alone': Number.isNaN(pubAloneRate)
        ? '-'
        : `${fmt(pubAloneRate)}/s, ${pubAloneCpu.toFixed(1)} us CPU each`,
      'MQTT alone': Number.isNaN(mqttRate) ? '-' : `${fmt(mqttRate)}/s`,
      sustained: `${fmt(s.perSecond)}/s`,
      'bench process CPU per stored uplink': `${((s.cpu.us.self ?? 0) / s.stored).toFixed(1)} us`,
      'p50 / p99 at max': `${fmt(s.p50)} / ${fmt(s.p99)} ms`,
      'p50 / p99 at half': `${fmt(l.p50)} / ${fmt(l.p99)} ms`,
      'peak RSS': rssText(target, s),
      'overload offered / published': `${fmt(o.offeredPerSecond)} / ${fmt(o.publishedPerSecond)}/s`,
      'overload peak RSS': rssText(target, o),
      'max backlog (log / unacked)': `${fmt(Math.max(o.maxDepth, o.maxLag))} / ${fmt(o.maxPending)}`,
      drain: `${fmt(o.drainMs)} ms`,
      // Not drained within the 20 s bound: rows still queued are not lost, but the count cannot tell.
      'lost (accepted - stored)': `${fmt(o.accepted - o.storedSql)}${o.drained ? '' : ' (NOT drained in 20 s)'}`,
    });
    await Promise.all(publishers.map((p) => p.conn.end()));
  } finally {
    await close();
  }
}

if (process.env.IOT_INGEST_BENCH_CHILD) {
  await childMain(JSON.parse(process.env.IOT_INGEST_BENCH_CHILD) as ChildOptions & { index: number });
} else {
  console.log(
    `ingest benchmark ${new Date().toISOString()} on ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ` +
      `phases of ${PHASE_S} s; publishers: ${PUBLISHER}`,
  );
  if (which === 'embedded' || which === 'both') await runProfile(embeddedTarget);
  if (which === 'distributed' || which === 'both') await runProfile(distributedTarget);
  console.log('');
  console.table(results);
  process.exit(0);
}
