/**
 * Rules and notifications, ours beside Node-RED in the same process: latency from an uplink's MQTT
 * publish to its alert email accepted by an SMTP server, at a fixed rate, and rule evaluations per second
 * when no rule fires.
 *
 *   npx tsx tests/bench/rules.bench.ts [all|ours|distributed|distributed-apart|node-red|both|floor|floors|floor-<variant>]
 *     [rate=1000] [latency phase s=15] [throughput phase s=8] [devices=100] [Mosquitto URL]
 *   Mosquitto URL: the broker of Node-RED's side (default: a Mosquitto of its own with the shipped
 *   configuration) and of the floor's `machine` variant (default mqtt://127.0.0.1:1883).
 *   RULES_BENCH_FIRING=burst: the 1 in 50 phase fires every device in the same round (see FIRING)
 *   RULES_BENCH_CPU_PROFILE=<dir>: a CPU profile of this process's main thread during each side's two
 *     latency phases, written to <dir>/<side>-1in50.cpuprofile and <side>-every2nd.cpuprofile (off by
 *     default; the profiler costs CPU)
 *
 * Per side: warm-up, throughput phase, 8 s at the rate with 1 in 50 uplinks firing, then the main phase
 * at the rate with every second uplink firing (last, as it may leave a backlog of mails behind). Each
 * latency phase also prints per-stage p50 / p99 from publish ("stages from publish": the PUBACK, aedes and
 * the event log as wrapped here, nodemailer's steps, and what the rules worker and the notifier report
 * through the diagnostics channel iot:stage, @iot/runtime).
 *
 * (0) floor (in all and both): the same publishers and SMTP sink with a bare subscriber that mails each
 *     firing uplink at once through the notifier's pooled transport: what the bench can show at best.
 *     `floors` runs every variant (aedes, the machine's Mosquitto, nodemailer's default transport as
 *     Node-RED's, a connection per mail with Nagle off).
 *
 * Every device has ten rules on `temperature`: nine that never hold for the values sent (lte -100, gte
 * 1e9, eq -999, in [-1000, -900], out [-1e9, 1e9], rie 1e9, fae -1e9, lte -200, gte 2e9) and one
 * `gte 500000` with an email action whose subject is `bench {value}`. Each device alternates its values:
 * 1 (below: the episode ends, the rule re-arms) and 1 000 000 + sequence number (above: a new episode, the
 * rule fires once, time window 0, no schedule, no max actions). So every second uplink mails, and the
 * subject carries the sequence number, which the SMTP server maps back to the publish time.
 *
 * (a) ours: the whole platform in this process (startPlatform: PGlite, embedded aedes broker, in-process
 *     log, storage writer, rules worker, notifier with SMTP_URL at a local smtp-server); devices, tokens,
 *     rules and actions created by SQL; one MQTT connection per device, authenticated as the device.
 * (b) Node-RED 4 embedded (RED.init / RED.start, editor and HTTP nodes off) with a generated flow:
 *     `mqtt in` (its own Mosquitto, a unique topic) -> `function` "ten conditions" (the same conditions with
 *     the same episode semantics, state per device in node context) -> `function` "send email" (nodemailer
 *     from functionGlobalContext, nodemailer's default transport: one connection per mail; our notifier
 *     pools its connections) to its own smtp-server.
 *     node-red-node-email is not used: see tests/bench/README.md.
 * (c) distributed: ours composed as `PROFILE=distributed npm start` in this process (PostgreSQL, NATS
 *     JetStream, BullMQ on Redis, devices publishing to a Mosquitto of its own started with the shipped
 *     infra/mosquitto configuration); latency phases only.
 * (d) distributed-apart: the same, deployed as infra/docker-compose.yml does: ingest, the rules worker and the
 *     notifier each in a process of its own (this file again with IOT_RULES_BENCH_CHILD set), jobs through
 *     BullMQ; the children send their stages over IPC. Latency phases only.
 *
 * Throughput phase: both sides get only values that fire nothing (1), closed loop (at most WINDOW uplinks
 * published and not yet evaluated), and the rate is uplinks evaluated x 10 rules / time until the last
 * one was evaluated. "Evaluated" is, for ours, PUBACKs (sent after the event log accepted the uplink)
 * minus the rules worker's consumer lag; for Node-RED, a counter the conditions function increments.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { createServer as createNetServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventLoopUtilization, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadConfig } from '@iot/config';
import { type Db, migrate, openDb, pgliteWorkerOf } from '@iot/db';
import { createTestDb } from '@iot/db/testing';
import { transportOptions } from '@iot/delivery';
import { createNatsEventLog } from '@iot/event-log';
import { type IngestService, startIngest } from '@iot/ingest';
import { deleteRedisPrefix, openJobQueue, readBullmqJobTimes } from '@iot/jobs';
import { startNotifier } from '@iot/notifier';
import { startPlatform } from '@iot/platform';
import { startRulesWorker } from '@iot/rules-worker';
import { createLogger, STAGE_CHANNEL, type StageEvent } from '@iot/runtime';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import nodemailer from 'nodemailer';
import { startOwnMosquitto } from './lib/mosquitto.js';
import { INGEST_NODE_FLAGS } from './lib/node-flags.js';
import { settleStatistics } from './lib/statistics.js';

/** ours (embedded), node-red, distributed, distributed-apart, both (ours and Node-RED) or all (default). */
const which = process.argv[2] ?? 'all';
const RATE = Number(process.argv[3] ?? 1000);
const LATENCY_S = Number(process.argv[4] ?? 15);
const THROUGHPUT_S = Number(process.argv[5] ?? 8);
const DEVICES = Number(process.argv[6] ?? 100);
/** A second latency phase where only 1 in FEW_PERIOD uplinks fires (the rate the notifier is sized for). */
const FEW_PERIOD = 50;
const FEW_S = 8;
const MOSQUITTO_URL = process.argv[7] ?? 'mqtt://127.0.0.1:1883';
/**
 * Node-RED's broker: a Mosquitto of its own with the shipped configuration (TCP_NODELAY, deep queues), as
 * the distributed side has, unless a Mosquitto URL is given on the command line.
 */
const NODE_RED_OWN_MOSQUITTO = process.argv[7] === undefined;
/** Publishing to Mosquitto for Node-RED: a few anonymous connections carry all devices' topics. */
const MOSQUITTO_CONNECTIONS = 4;
/** After publishing stops, mails still on their way are waited for at most this long (bounded run). */
const DRAIN_MS = 20_000;
/**
 * Throughput phase, uplinks published and not yet evaluated. Node-RED: a Mosquitto with its default
 * configuration queues at most 1000 messages per subscriber (max_queued_messages) and drops the rest, so
 * stay below (also on its own Mosquitto, whose queues are deeper, so figures compare with earlier runs). Ours: the embedded
 * broker's PUBACK already waits for the event log; the window only keeps the backlog comparable.
 */
const WINDOW_NODE_RED = 900;
const WINDOW_OURS = 4000;
const THRESHOLD = 500_000;
const ABOVE_BASE = 1_000_000;
const BELOW = 1;

const log = createLogger({ level: 'warn', name: 'bench-rules' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : String(n));

// ------------------------------------------------------------------------------------------- stages
/**
 * What a process of the `distributed-apart` side runs (this file again with IOT_RULES_BENCH_CHILD set):
 * one app as its own `main.ts` starts it, with the bench's isolation (stream prefix, topic, queue
 * prefix, share group) in place of the defaults.
 */
interface ApartChildOptions {
  role: 'ingest' | 'rules-worker' | 'notifier';
  env: Record<string, string>;
  streamPrefix: string;
  topic: string;
  queuePrefix: string;
  shareGroup: string;
}

/** A stage a child process saw for a traced sequence, sent to the bench every 5 ms: [stage, seq, epoch ms]. */
type StageRecord = [string, number, number];
const CHILD = process.env.IOT_RULES_BENCH_CHILD
  ? (JSON.parse(process.env.IOT_RULES_BENCH_CHILD) as ApartChildOptions)
  : undefined;
const childOutbox: StageRecord[] = [];
/** The bench's child processes: told which sequences are traced (latencyPhase), they send their stages back. */
const stageRelays = new Set<ChildProcess>();

function traceSequence(seq: number): void {
  traced.add(seq);
  for (const child of stageRelays) child.send({ trace: seq });
}

function clearTraced(): void {
  traced.clear();
  for (const child of stageRelays) child.send({ clear: true });
}

/**
 * Per-stage timestamps of the firing uplinks of the running latency phase (epoch ms with sub-ms
 * precision, by sequence number): the bench's own (publish, PUBACK), aedes and the event log (wrapped
 * by ourSide), nodemailer's (patched below, the same module the notifier loads) and whatever the code
 * under test publishes on the diagnostics channel iot:stage (@iot/runtime stageHook).
 */
const traced = new Set<number>();
const stageTimes = new Map<string, Map<number, number>>();
const epochNow = () => performance.timeOrigin + performance.now();
function traceStage(stage: string, seq: number, at = epochNow()): void {
  if (!traced.has(seq)) return;
  // A child process of the apart side records nothing itself: its stages go to the bench.
  if (CHILD) {
    childOutbox.push([stage, seq, at]);
    return;
  }
  let times = stageTimes.get(stage);
  if (!times) {
    times = new Map();
    stageTimes.set(stage, times);
  }
  if (!times.has(seq)) times.set(seq, at);
}
subscribe(STAGE_CHANNEL, (message) => {
  if (traced.size === 0) return;
  const { stage, messageIds } = message as StageEvent;
  const at = epochNow();
  for (const id of messageIds)
    if (id.charCodeAt(0) === 98 /* b */) traceStage(stage, Number(id.slice(1)), at);
});
/** The sequence number in a bench mail's subject (`bench <ABOVE_BASE + seq>`), or -1. */
function seqOfSubject(subject: unknown): number {
  const m = typeof subject === 'string' ? /^bench (\d+)/.exec(subject) : null;
  return m ? Number(m[1]) - ABOVE_BASE : -1;
}
{
  // nodemailer's steps: sendMail called, handed to the pool (message compiled), a pooled connection
  // assigned, the server's 250 read by the client. Same module instances as the notifier's (hoisted).
  const require = createRequire(import.meta.url);
  const wrap = (path: string, stage: string, after?: string) => {
    const proto = require(path).prototype as Record<string, (...args: unknown[]) => unknown>;
    const original = proto.send ?? proto.sendMail;
    const name = proto.send ? 'send' : 'sendMail';
    proto[name] = function (this: unknown, ...args: unknown[]) {
      // Mailer.sendMail(data): the message's data; the transports' send(mail): a compiled mail with .data.
      const mail = args[0] as { subject?: unknown; data?: { subject?: unknown } };
      const seq = seqOfSubject(mail?.data?.subject ?? mail?.subject);
      if (seq >= 0) {
        traceStage(stage, seq);
        // A pool resource not connected yet: this mail waits for a new connection (greeting, EHLO).
        if ((this as { _connected?: boolean })._connected === false)
          traceStage('smtp: (new connection)', seq);
        const callback = args[1];
        if (after && typeof callback === 'function')
          args[1] = (...result: unknown[]) => {
            traceStage(after, seq);
            return callback(...result);
          };
      }
      return original?.apply(this, args);
    };
  };
  wrap('nodemailer/lib/mailer/index.js', 'smtp: sendMail called');
  wrap('nodemailer/lib/smtp-pool/index.js', 'smtp: compiled, queued in the pool');
  wrap(
    'nodemailer/lib/smtp-pool/pool-resource.js',
    'smtp: connection assigned',
    'smtp: 250 read by the client',
  );
  wrap(
    'nodemailer/lib/smtp-transport/index.js',
    'smtp: compiled, new connection',
    'smtp: 250 read by the client',
  );
}

/** The q-th percentile (nearest rank) of ascending values; NaN for none. */
function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Count, p50 and p99 of the values (sorted in place). */
function spread(values: number[]): { n: number; p50: number; p99: number } {
  values.sort((a, b) => a - b);
  return { n: values.length, p50: percentile(values, 50), p99: percentile(values, 99) };
}

/** p50 / p99 of each stage from publish, in order of p50. */
function stageSummary(publishedEpoch: ReadonlyMap<number, number>, arrivals: ReadonlyMap<number, number>) {
  const all = new Map(stageTimes);
  const accepted = new Map<number, number>();
  for (const [seq, at] of arrivals)
    if (publishedEpoch.has(seq)) accepted.set(seq, at + performance.timeOrigin);
  all.set('mail accepted by the SMTP server (end of DATA)', accepted);
  const rows: { stage: string; n: number; p50: number; p99: number }[] = [];
  for (const [stage, times] of all) {
    const ms = [...times].flatMap(([seq, at]) => {
      const t = publishedEpoch.get(seq);
      return t === undefined ? [] : [at - t];
    });
    if (ms.length > 0) rows.push({ stage, ...spread(ms) });
  }
  return rows.sort((a, b) => a.p50 - b.p50);
}

// -------------------------------------------------------------------------------------------- the rules
interface Condition {
  operator: 'lte' | 'gte' | 'eq' | 'in' | 'out' | 'rie' | 'fae';
  value?: number;
  rangeMin?: number;
  rangeMax?: number;
  fires?: true;
}
/** Nine conditions that never hold for the values sent, then the one that mails. */
const CONDITIONS: Condition[] = [
  { operator: 'lte', value: -100 },
  { operator: 'gte', value: 1e9 },
  { operator: 'eq', value: -999 },
  { operator: 'in', rangeMin: -1000, rangeMax: -900 },
  { operator: 'out', rangeMin: -1e9, rangeMax: 1e9 },
  { operator: 'rie', value: 1e9 },
  { operator: 'fae', value: -1e9 },
  { operator: 'lte', value: -200 },
  { operator: 'gte', value: 2e9 },
  { operator: 'gte', value: THRESHOLD, fires: true },
];
const SUBJECT = 'bench {value}';

// ------------------------------------------------------------------------------------------ SMTP sinks
interface MailSink {
  port: number;
  /** performance.now() at which the mail with this sequence number was accepted (end of DATA). */
  arrivals: Map<number, number>;
  duplicates: number;
  close: () => Promise<void>;
}

/**
 * The SMTP server runs in a worker thread of its own: a real mail server is another process, and one in
 * the bench's main thread would answer only when the side under test lets the event loop turn (ours
 * runs PGlite on that thread), making the server's delays part of the sender's figure. The worker
 * records when each mail's DATA ended on the shared clock (performance.timeOrigin + now) and posts it.
 */
const MAIL_SINK_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { SMTPServer } = require('smtp-server');
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  // smtp-server looks up each client's address in reverse DNS by default: about a second here per
  // connection, which would be the SMTP server's delay, not the sender's.
  disableReverseLookup: true,
  size: 1000000,
  onData(stream, _session, callback) {
    let head = '';
    stream.on('data', (chunk) => {
      if (head.length < 4096) head += chunk.toString('utf8');
    });
    stream.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const m = /^Subject: bench (\\d+)/im.exec(head);
      if (m) parentPort.postMessage({ seq: Number(m[1]) - workerData.aboveBase, at });
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.server.address().port }));
parentPort.on('message', (message) => {
  if (message === 'close') server.close(() => parentPort.postMessage({ closed: true }));
});
`;

/** A local SMTP server (in a worker thread) that records when each mail's DATA ended, by the number in its subject. */
async function startMailSink(): Promise<MailSink> {
  const arrivals = new Map<number, number>();
  const sink = { arrivals, duplicates: 0 } as MailSink;
  const worker = new Worker(MAIL_SINK_WORKER, { eval: true, workerData: { aboveBase: ABOVE_BASE } });
  let closed: (() => void) | undefined;
  sink.port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { port?: number; seq?: number; at?: number; closed?: boolean }) => {
      if (message.port !== undefined) resolve(message.port);
      if (message.closed) closed?.();
      if (message.seq === undefined || message.at === undefined) return;
      // The worker's clock as this thread's performance.now().
      const at = message.at - performance.timeOrigin;
      if (arrivals.has(message.seq)) sink.duplicates += 1;
      else arrivals.set(message.seq, at);
    });
  });
  sink.close = async () => {
    await new Promise<void>((resolve) => {
      closed = resolve;
      worker.postMessage('close');
    });
    await worker.terminate();
  };
  return sink;
}

// ------------------------------------------------------------------------------------------ the sides
interface Publisher {
  client: MqttClient;
  topics: string[];
  next: number;
}

/**
 * Anonymous publishers for the bench's devices `<prefix>/dev<i>/up`, spread round robin over `connections`
 * MQTT connections to `url` (the floor and Node-RED; ours authenticates each device itself).
 */
function connectPublishers(url: string, prefix: string, connections: number): Promise<Publisher[]> {
  return Promise.all(
    Array.from({ length: connections }, async (_, c) => ({
      client: await mqtt.connectAsync(url, { clientId: `${prefix}-pub-${c}`, reconnectPeriod: 0 }),
      topics: Array.from(
        { length: Math.ceil(DEVICES / connections) },
        (_d, i) => `${prefix}/dev${i * connections + c}/up`,
      ),
      next: 0,
    })),
  );
}

/** Counts the PUBACKs the broker sends to these publishers; answers the count so far. */
function countPubacks(publishers: readonly Publisher[]): () => number {
  let pubacks = 0;
  for (const p of publishers)
    p.client.on('packetreceive', (packet) => {
      if (packet.cmd === 'puback') pubacks += 1;
    });
  return () => pubacks;
}

interface Side {
  name: string;
  mail: MailSink;
  publishers: Publisher[];
  /** Uplinks whose ten conditions have been evaluated so far (since the side started). */
  evaluated: () => Promise<number>;
  /** Uplinks accepted so far (PUBACK). */
  accepted: () => number;
  window: number;
  /** Ours: backlogs sampled during a latency phase (consumer lags of the event log). */
  backlog?: () => Promise<Record<string, number>>;
  /** Ours: when the rules worker's transaction that logged each firing began (epoch ms, by sequence). */
  firedAt?: (fromSeq: number) => Promise<Map<number, number>>;
  /**
   * Ours: when each firing's job key was claimed (job_keys.created_at, epoch ms, by sequence): by the
   * notifier's attempt, or, when the rules worker claims it in its own transaction (the notifier runs
   * in the same process), that transaction's start (PostgreSQL now()).
   */
  claimedAt?: (fromSeq: number) => Promise<Map<number, number>>;
  /** Ours: how long each completed notify job took, claim to completion (job_keys), in ms. */
  jobDurations?: (fromSeq: number) => Promise<number[]>;
  /**
   * Distributed: more stages read back after a phase, epoch ms by sequence (BullMQ's own job fields:
   * `timestamp` when the rules worker added it, `processedOn` when a worker took it, `finishedOn`).
   */
  moreStages?: (fromSeq: number) => Promise<Record<string, Map<number, number>>>;
  /** Ours: why a rule of these uplinks did not notify (device_logs rule_suppressed), by sequence. */
  suppressed?: (seqs: readonly number[]) => Promise<Map<number, string>>;
  /** Ours: stages both profiles write to the database after the send (epoch ms by sequence). */
  dbStages?: (fromSeq: number) => Promise<Record<string, Map<number, number>>>;
  /** Threads besides the main one whose busy share is printed per phase (ours embedded: PGlite's). */
  threads?: Record<string, () => EventLoopUtilization>;
  close: () => Promise<void>;
}

/** One uplink per device in turn; `fire` decides above or below; the body carries the sequence number. */
function publishNext(side: Side, seq: number, value: number, ack: (ok: boolean) => void): void {
  const p = side.publishers[seq % side.publishers.length] as Publisher;
  const topic = p.topics[p.next++ % p.topics.length] as string;
  const body = JSON.stringify({ message_id: `b${seq}`, ts: Date.now(), temperature: value });
  p.client.publishAsync(topic, body, { qos: 1 }).then(
    () => {
      traceStage('PUBACK received by the publisher', seq);
      ack(true);
    },
    () => ack(false),
  );
}

/**
 * How the firing uplinks of the 1 in 50 phase are spread: `steady` (default) gives each device its own
 * phase, so the firings come evenly (20 mails/s at 1k uplinks/s: one every 50 ms); `burst`, how the bench
 * ran before 2026-11-21 16:00 UTC, fires every device in the same round of 100 uplinks: 100 mails within
 * 100 ms every 5 s, and an 8 s phase is one such burst. The burst measured mostly the SMTP pool opening
 * new connections (smtp-server holds each greeting 100 ms), which the floor line shows too.
 */
const FIRING = process.env.RULES_BENCH_FIRING === 'burst' ? 'burst' : 'steady';

/**
 * Values per device: `period - 1` below, then one above. Period 2 alternates, so each device's "above"
 * uplinks fire exactly once each (the "below" ends the episode and re-arms the rule). Steady: a device's
 * count starts at its index (order of first publish) modulo (period - 1).
 */
class Pattern {
  private readonly count = new Map<string, number>();
  constructor(
    private readonly publishers: Publisher[],
    private readonly period: number,
  ) {}
  above(seq: number): boolean {
    const p = this.publishers[seq % this.publishers.length] as Publisher;
    const topic = p.topics[p.next % p.topics.length] as string;
    // Offsets 0 .. period - 2: no device fires on its first uplink of a phase, which must end the
    // episode the phase before may have left open (the warm-up ends above).
    const n =
      this.count.get(topic) ??
      (FIRING === 'steady' && this.period > 2 ? this.count.size % (this.period - 1) : 0);
    this.count.set(topic, n + 1);
    return n % this.period === this.period - 1;
  }
}

let sequence = 0;

/**
 * Event loop delay of the process during a phase: everything of a side runs on this one thread (PGlite
 * too), so a blocked loop delays every socket, SMTP round trips included.
 */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

async function latencyPhase(side: Side, rate: number, seconds: number, period: number) {
  loopDelay.reset();
  const busyFrom = threadBusy(side);
  const pattern = new Pattern(side.publishers, period);
  const publishedAt = new Map<number, number>();
  const publishedEpoch = new Map<number, number>();
  const firstSeq = sequence;
  const maxBacklog: Record<string, number> = {};
  let sampling = true;
  const sampler = (async () => {
    while (sampling && side.backlog) {
      for (const [k, v] of Object.entries(await side.backlog()))
        maxBacklog[k] = Math.max(maxBacklog[k] ?? 0, v);
      await sleep(100);
    }
  })();
  let published = 0;
  let failed = 0;
  const start = performance.now();
  let slots = 0;
  while (performance.now() - start < seconds * 1000) {
    const due = Math.floor(((performance.now() - start) * rate) / 1000) - slots;
    for (let i = 0; i < due; i++) {
      slots += 1;
      const seq = sequence++;
      const above = pattern.above(seq);
      if (above) {
        publishedAt.set(seq, performance.now());
        publishedEpoch.set(seq, epochNow());
        traceSequence(seq);
      }
      published += 1;
      publishNext(side, seq, above ? ABOVE_BASE + seq : BELOW, (ok) => {
        if (!ok) failed += 1;
      });
    }
    await sleep(2);
  }
  const sendSeconds = (performance.now() - start) / 1000;
  const loop = {
    p50: loopDelay.percentile(50) / 1e6,
    p99: loopDelay.percentile(99) / 1e6,
    max: loopDelay.max / 1e6,
  };
  const end = performance.now();
  const delivered = () => [...publishedAt.keys()].filter((s) => side.mail.arrivals.has(s)).length;
  while (delivered() < publishedAt.size && performance.now() - end < DRAIN_MS) await sleep(50);
  const drainMs = performance.now() - end;
  const busy = busyFrom();
  sampling = false;
  await sampler;
  // Stage: publish -> the rules worker's transaction that logged the firing (its start, PostgreSQL now()).
  const stage = async (read?: (fromSeq: number) => Promise<Map<number, number>>) => {
    if (!read) return { n: 0, p50: Number.NaN, p99: Number.NaN };
    const at = await read(firstSeq);
    return spread([...publishedEpoch].flatMap(([s, t]) => (at.has(s) ? [(at.get(s) as number) - t] : [])));
  };
  // The child processes of the apart side send their stages every 5 ms: let the last ones arrive.
  if (stageRelays.size > 0) await sleep(50);
  const stages = stageSummary(publishedEpoch, side.mail.arrivals);
  clearTraced();
  stageTimes.clear();
  // Mails that never came: did their rule decline to fire (and why), or was nothing logged for them?
  const missing = [...publishedAt.keys()].filter((q) => !side.mail.arrivals.has(q));
  const missingWhy: Record<string, number> = {};
  if (missing.length > 0 && side.suppressed) {
    const why = await side.suppressed(missing);
    for (const q of missing) {
      const reason = why.get(q) ?? 'no suppression logged';
      missingWhy[reason] = (missingWhy[reason] ?? 0) + 1;
    }
  }
  const fired = await stage(side.firedAt);
  const claimed = await stage(side.claimedAt);
  const more: Record<string, { n: number; p50: number; p99: number }> = {};
  for (const read of [side.moreStages, side.dbStages]) {
    if (!read) continue;
    const maps = await read(firstSeq);
    for (const [name, map] of Object.entries(maps)) more[name] = await stage(async () => map);
  }
  const job = spread(side.jobDurations ? await side.jobDurations(firstSeq) : []);
  // Mails not delivered within the drain bound count as infinitely late: p99 is then at least that late.
  const latencies = [...publishedAt].map(
    ([s, t]) => (side.mail.arrivals.get(s) ?? Number.POSITIVE_INFINITY) - t,
  );
  latencies.sort((a, b) => a - b);
  const pct = (q: number) => percentile(latencies, q);
  return {
    offered: published / sendSeconds,
    published,
    failed,
    expected: publishedAt.size,
    delivered: delivered(),
    p50: pct(50),
    p99: pct(99),
    max: latencies.at(-1) ?? Number.NaN,
    drainMs,
    maxBacklog,
    fired,
    claimed,
    more,
    job,
    loop,
    busy,
    stages,
    missingWhy,
  };
}

/** The PGlite worker thread of an embedded platform's database, when it has one. */
function pgliteThread(db: Db): Record<string, () => EventLoopUtilization> {
  const worker = pgliteWorkerOf(db);
  return worker ? { PGlite: () => worker.performance.eventLoopUtilization() } : {};
}

/**
 * How busy the main thread and the side's other threads were from now until the returned function is
 * called (event loop utilization: time not idle in the loop): the share of the time, and the busy time
 * itself. A thread near 100 % is where a phase queues; the busy time is the work the phase's uplinks and
 * mails cost that thread, which compares across runs even when their backlogs differ.
 */
function threadBusy(side: Side): () => Record<string, { share: number; ms: number }> {
  const threads: Record<string, () => EventLoopUtilization> = {
    main: () => performance.eventLoopUtilization(),
    ...side.threads,
  };
  const start = Object.fromEntries(Object.entries(threads).map(([name, read]) => [name, read()]));
  return () =>
    Object.fromEntries(
      Object.entries(threads).map(([name, read]) => {
        const { utilization, active } = performance.eventLoopUtilization(read(), start[name]);
        return [name, { share: utilization, ms: active }];
      }),
    );
}

async function throughputPhase(side: Side, seconds: number) {
  // Start from an idle path: everything published before has been evaluated.
  const idleBy = performance.now() + DRAIN_MS;
  let before = await side.evaluated();
  while (before < side.accepted() && performance.now() < idleBy) {
    await sleep(50);
    before = await side.evaluated();
  }
  let published = 0;
  let failed = 0;
  let evaluated = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    evaluated = (await side.evaluated()) - before;
    const room = side.window - (published - evaluated);
    for (let i = 0; i < room; i++) {
      published += 1;
      publishNext(side, sequence++, BELOW, (ok) => {
        if (!ok) failed += 1;
      });
    }
    await sleep(5);
  }
  // The phase ends with the last evaluation: uplinks lost on the way (a broker dropping them) must not
  // count the drain bound as working time.
  const end = performance.now();
  let lastProgress = end;
  while (
    evaluated < published - failed &&
    performance.now() - lastProgress < 3_000 &&
    performance.now() - end < DRAIN_MS
  ) {
    await sleep(5);
    const now = (await side.evaluated()) - before;
    if (now > evaluated) lastProgress = performance.now();
    evaluated = now;
  }
  const ms = (evaluated < published - failed ? lastProgress : performance.now()) - start;
  return {
    published,
    failed,
    evaluated,
    uplinksPerSecond: (evaluated / ms) * 1000,
    evaluationsPerSecond: ((evaluated * CONDITIONS.length) / ms) * 1000,
  };
}

// ------------------------------------------------------------------------------------------------ ours
async function createBenchFleet(db: Db, n: number) {
  const { rows: c } = await db.query<{ id: number }>(
    "INSERT INTO companies (name) VALUES ('Bench rules ' || md5(random()::text)) RETURNING id::int AS id",
  );
  const companyId = c[0]?.id;
  if (companyId === undefined) throw new Error('no company');
  const uuids = Array.from({ length: n }, (): string => randomUUID());
  const tokens = uuids.map(() => randomBytes(16).toString('hex'));
  const hashes = tokens.map((t) => createHash('sha256').update(t).digest('hex'));
  const { rows: devices } = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO devices (company_id, name, uuid, credentials_hash)
     SELECT $1, 'bench ' || t.i, t.u::uuid, t.h FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(u, h, i)
     RETURNING id::int AS id, uuid::text AS uuid`,
    [companyId, uuids, hashes],
  );
  const conditions = JSON.stringify(CONDITIONS.map((k, i) => ({ ...k, position: i })));
  const { rows: firing } = await db.query<{ id: number; fires: boolean }>(
    `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value, range_min, range_max)
     SELECT $1, d.id, 'bench ' || c.position, 'data', 'temperature', c.operator, c.value, c."rangeMin", c."rangeMax"
     FROM unnest($2::bigint[]) AS d(id)
     CROSS JOIN jsonb_to_recordset($3::jsonb) AS c(position int, operator text, value float8, "rangeMin" float8,
                                                   "rangeMax" float8, fires boolean)
     RETURNING id::int AS id, (name = 'bench ' || $4::text) AS fires`,
    [companyId, devices.map((d) => d.id), conditions, CONDITIONS.length - 1],
  );
  const firingIds = firing.filter((r) => r.fires).map((r) => r.id);
  await db.query(
    `INSERT INTO rule_actions (company_id, rule_id, position, type, recipients, subject, body)
     SELECT $1, r.id, 0, 'email', ARRAY['bench@example.test'], $3, '{device}: {field} {value} at {time}'
     FROM unnest($2::bigint[]) AS r(id)`,
    [companyId, firingIds, SUBJECT],
  );
  // Without statistics the firing transaction's read of its actions took 80 ms for 150 jobs instead of 5.
  await settleStatistics(db);
  const token = new Map(uuids.map((u, i) => [u, tokens[i] ?? '']));
  return {
    companyId,
    rules: firing.length,
    firingRules: firingIds.length,
    devices: devices.map((d) => ({ ...d, token: token.get(d.uuid) ?? '' })),
  };
}

/** The stages ours reads back from its database (the same SQL on PGlite and PostgreSQL). */
function stageReaders(db: Db, companyId: number) {
  return {
    firedAt: async (fromSeq: number) => {
      const { rows } = await db.query<{ seq: number; at: number }>(
        `SELECT substr(payload->>'messageId', 2)::int AS seq, (extract(epoch FROM created_at) * 1000)::float8 AS at
         FROM device_logs WHERE company_id = $1 AND payload->>'kind' = 'rule_fired'
           AND substr(payload->>'messageId', 2)::int >= $2`,
        [companyId, fromSeq],
      );
      return new Map(rows.map((r) => [Number(r.seq), Number(r.at)]));
    },
    claimedAt: async (fromSeq: number) => {
      // Job key <rule id>:b<sequence>:<action id>.
      const { rows } = await db.query<{ seq: number; at: number }>(
        `SELECT substr(split_part(key, ':', 2), 2)::int AS seq, (extract(epoch FROM created_at) * 1000)::float8 AS at
         FROM job_keys WHERE split_part(key, ':', 2) LIKE 'b%' AND substr(split_part(key, ':', 2), 2)::int >= $1`,
        [fromSeq],
      );
      return new Map(rows.map((r) => [Number(r.seq), Number(r.at)]));
    },
    suppressed: async (seqs: readonly number[]) => {
      if (seqs.length === 0) return new Map<number, string>();
      const { rows } = await db.query<{ seq: number; reason: string }>(
        `SELECT substr(payload->>'messageId', 2)::int AS seq, payload->>'reason' AS reason
         FROM device_logs WHERE company_id = $1 AND payload->>'kind' = 'rule_suppressed'
           AND payload->>'messageId' = ANY($2::text[])`,
        [companyId, seqs.map((q) => `b${q}`)],
      );
      return new Map(rows.map((r) => [Number(r.seq), r.reason]));
    },
    // After the send: its notification_log row (coalesced write), then the key marked done.
    dbStages: async (fromSeq: number) => {
      const { rows } = await db.query<{ seq: number; logged: number; completed: number | null }>(
        `SELECT substr(split_part(n.idempotency_key, ':', 2), 2)::int AS seq,
                (extract(epoch FROM n.created_at) * 1000)::float8 AS logged,
                (extract(epoch FROM k.completed_at) * 1000)::float8 AS completed
         FROM notification_log n LEFT JOIN job_keys k ON k.key = n.idempotency_key
         WHERE n.company_id = $1 AND n.status = 'sent' AND split_part(n.idempotency_key, ':', 2) LIKE 'b%'
           AND substr(split_part(n.idempotency_key, ':', 2), 2)::int >= $2`,
        [companyId, fromSeq],
      );
      const logged = new Map<number, number>();
      const completed = new Map<number, number>();
      for (const r of rows) {
        logged.set(Number(r.seq), Number(r.logged));
        if (r.completed !== null) completed.set(Number(r.seq), Number(r.completed));
      }
      return {
        'sent logged (notification_log.created_at)': logged,
        'key completed (job_keys.completed_at)': completed,
      };
    },
    jobDurations: async (fromSeq: number) => {
      const { rows } = await db.query<{ ms: number }>(
        `SELECT (extract(epoch FROM completed_at - created_at) * 1000)::float8 AS ms FROM job_keys
         WHERE completed_at IS NOT NULL AND split_part(key, ':', 2) LIKE 'b%'
           AND substr(split_part(key, ':', 2), 2)::int >= $1`,
        [fromSeq],
      );
      return rows.map((r) => Number(r.ms));
    },
  };
}

/**
 * Anonymous publishers to a Mosquitto (in this profile the broker authenticates devices): a few
 * connections carry all devices' topics, as Node-RED's publishers do.
 */
function connectDevicePublishers(
  url: string,
  prefix: string,
  devices: readonly { uuid: string }[],
): Promise<Publisher[]> {
  return Promise.all(
    Array.from({ length: MOSQUITTO_CONNECTIONS }, async (_, c) => ({
      client: await mqtt.connectAsync(url, { clientId: `${prefix}-pub-${c}`, reconnectPeriod: 0 }),
      topics: devices.filter((_d, i) => i % MOSQUITTO_CONNECTIONS === c).map((d) => `devices/${d.uuid}/up`),
      next: 0,
    })),
  );
}

/** BullMQ's own times of the notify jobs (epoch ms by sequence), read back after a phase. */
function bullmqStages(redisUrl: string, queuePrefix: string) {
  return async (fromSeq: number) => {
    const added = new Map<number, number>();
    const taken = new Map<number, number>();
    const finished = new Map<number, number>();
    for (const job of await readBullmqJobTimes(redisUrl, queuePrefix, 'notify.action')) {
      // Job key <rule id>:b<sequence>:<action id>.
      const m = /^\d+:b(\d+):/.exec(job.idempotencyKey);
      const seq = m ? Number(m[1]) : -1;
      if (seq < fromSeq) continue;
      added.set(seq, job.addedAt);
      if (job.processedAt !== null) taken.set(seq, job.processedAt);
      if (job.finishedAt !== null) finished.set(seq, job.finishedAt);
    }
    return {
      'job added to BullMQ (timestamp)': added,
      'job taken by a worker (processedOn)': taken,
      'job finished (finishedOn)': finished,
    };
  };
}

/**
 * Ours in the distributed profile, composed as `PROFILE=distributed npm start` does (startPlatform) in
 * this process: a fresh PostgreSQL database (a connection pool: queries do not block this thread),
 * the machine's NATS JetStream as event log (a stream prefix and topic of its own), BullMQ on the
 * machine's Redis (a key prefix of its own), ingest in a share group of its own on the machine's
 * Mosquitto, where the devices publish (anonymous, like Node-RED's publishers; the broker is where
 * devices are authenticated in this profile). Only the latency phases: a PUBACK here comes from
 * Mosquitto, not from our event log, so "evaluated" cannot be counted as for the embedded side.
 */
async function distributedSide(): Promise<Side> {
  const mail = await startMailSink();
  // A Mosquitto of its own with the shipped configuration (infra/mosquitto: max_queued_messages sized
  // for ingest's shared subscription), as the ingest bench uses: the machine's broker on 1883 keeps
  // its default limit of queued messages per subscriber and dropped uplinks in the storm.
  const mosquitto = await startOwnMosquitto();
  const run = randomBytes(4).toString('hex');
  const database = await createTestDb('postgres');
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-rules-dist-'));
  const topic = `uplinks_bench_${run}`;
  const queuePrefix = `bench-${run}`;
  const natsUrl = 'nats://127.0.0.1:4222';
  const redisUrl = 'redis://127.0.0.1:6379';
  const eventLog = await createNatsEventLog({ servers: natsUrl, streamPrefix: `bench_${run}_` });
  const cleanUp = async () => {
    await eventLog.deleteTopic(topic).catch(() => {});
    await eventLog.close();
    await deleteRedisPrefix(redisUrl, queuePrefix);
    await database.drop();
    await mosquitto.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let platform: Awaited<ReturnType<typeof startPlatform>>;
  try {
    const config = loadConfig({
      PROFILE: 'distributed',
      DATABASE_URL: database.url ?? '',
      NATS_URL: natsUrl,
      REDIS_URL: redisUrl,
      MQTT_URL: mosquitto.url,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: 'false',
      SIMULATE_DEVICES: '0',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
    });
    platform = await startPlatform({
      config,
      log,
      isolation: {
        eventLog,
        uplinksTopic: topic,
        queuePrefix,
        mqttExternal: {
          shareGroup: `bench-${run}`,
          clientIdPrefix: `bench-ingest-${run}`,
          cleanSession: true,
        },
      },
    });
  } catch (error) {
    await cleanUp().catch(() => {});
    throw error;
  }
  const fleet = await createBenchFleet(platform.db, DEVICES);
  console.log(
    `distributed: ${fleet.devices.length} devices, ${fleet.rules} rules, ${fleet.firingRules} with an email action`,
  );
  const publishers = await connectDevicePublishers(mosquitto.url, `bench-dist-${run}`, fleet.devices);
  const accepted = countPubacks(publishers);
  return {
    name: 'distributed (platform in-process: PostgreSQL, NATS JetStream, BullMQ on Redis, own Mosquitto, nodemailer)',
    mail,
    publishers,
    accepted,
    evaluated: async () => Number.NaN,
    window: 0,
    backlog: async () => ({
      'rules-worker lag': await eventLog.lag(topic, 'rules-worker'),
      'storage-writer lag': await eventLog.lag(topic, 'storage-writer'),
    }),
    ...stageReaders(platform.db, fleet.companyId),
    moreStages: bullmqStages(redisUrl, queuePrefix),
    close: async () => {
      await Promise.all(publishers.map((p) => p.client.endAsync()));
      for (const s of [...platform.services].reverse()) await s.stop();
      await mail.close();
      await cleanUp();
    },
  };
}

// ------------------------------------------------------------------------------ distributed, apart
async function apartChildMain(o: ApartChildOptions): Promise<void> {
  const config = loadConfig(o.env);
  const log = createLogger({ level: 'warn', name: `bench-${o.role}` });
  const db = await openDb(config);
  /** What to stop, in reverse order. */
  const stops: (() => Promise<void>)[] = [() => db.close()];
  const openLog = async () => {
    const eventLog = await createNatsEventLog({
      servers: config.NATS_URL ?? '',
      streamPrefix: o.streamPrefix,
    });
    stops.push(() => eventLog.close());
    return eventLog;
  };
  const openQueue = () => {
    const queue = openJobQueue(config, { db, prefix: o.queuePrefix });
    stops.push(() => queue.close());
    return queue;
  };
  if (o.role === 'ingest') {
    const ingest = await startIngest({
      config,
      db,
      log,
      eventLog: await openLog(),
      publisher: { topic: o.topic },
      mqttExternal: { shareGroup: o.shareGroup, clientIdPrefix: o.shareGroup, cleanSession: true },
    });
    stops.push(() => ingest.stop());
  } else if (o.role === 'rules-worker') {
    const eventLog = await openLog();
    const queue = openQueue();
    const worker = await startRulesWorker({ config, db, log, eventLog, topic: o.topic, queue });
    stops.push(() => worker.stop());
  } else {
    const notifier = await startNotifier({ config, db, log, queue: openQueue() });
    stops.push(() => notifier.stop());
  }
  const flush = setInterval(() => {
    if (childOutbox.length > 0) process.send?.({ stages: childOutbox.splice(0) });
  }, 5);
  process.on('message', (m: 'stop' | { trace?: number; clear?: boolean }) => {
    if (m === 'stop') {
      clearInterval(flush);
      void (async () => {
        for (const stop of stops.reverse()) await stop().catch(() => {});
        process.exit(0);
      })();
    } else if (m.trace !== undefined) traced.add(m.trace);
    else if (m.clear) traced.clear();
  });
  process.send?.({ ready: true });
}

/** Starts one app of the apart side in a process of its own; resolves once it is running. */
async function startApartChild(o: ApartChildOptions): Promise<{ stop: () => Promise<void> }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: [...(o.role === 'ingest' ? INGEST_NODE_FLAGS : []), ...process.execArgv],
    env: { ...process.env, IOT_RULES_BENCH_CHILD: JSON.stringify(o) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${o.role} process exited with ${code}`)));
    child.on('message', (m: { ready?: boolean; stages?: StageRecord[] }) => {
      for (const [stage, seq, at] of m.stages ?? []) traceStage(stage, seq, at);
      if (m.ready) resolve();
    });
  });
  child.removeAllListeners('exit');
  stageRelays.add(child);
  return {
    stop: async () => {
      stageRelays.delete(child);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await exited;
    },
  };
}

/**
 * Ours in the distributed profile as infra/docker-compose.yml deploys it: ingest, the rules worker and the
 * notifier each in a process of its own (ARCHITECTURE: "each app its own process"; ingest with its
 * production node flags), on the same services and with the same fleet, publishers and SMTP sink as the
 * `distributed` side. Jobs go from the rules worker to the notifier through BullMQ (no claim at enqueue:
 * the notifier does not run in the rules worker's process). The children send the stages they see back
 * over IPC; the API is not started (nothing in this path uses it). Latency phases only.
 */
async function distributedApartSide(): Promise<Side> {
  const mail = await startMailSink();
  const mosquitto = await startOwnMosquitto();
  const run = randomBytes(4).toString('hex');
  const database = await createTestDb('postgres');
  const topic = `uplinks_bench_${run}`;
  const queuePrefix = `bench-${run}`;
  const streamPrefix = `bench_${run}_`;
  const natsUrl = 'nats://127.0.0.1:4222';
  const redisUrl = 'redis://127.0.0.1:6379';
  const env = {
    PROFILE: 'distributed',
    DATABASE_URL: database.url ?? '',
    NATS_URL: natsUrl,
    REDIS_URL: redisUrl,
    MQTT_URL: mosquitto.url,
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
  };
  const config = loadConfig(env);
  const db = await openDb(config);
  const eventLog = await createNatsEventLog({ servers: natsUrl, streamPrefix });
  const children: { stop: () => Promise<void> }[] = [];
  const cleanUp = async () => {
    for (const child of children.reverse()) await child.stop().catch(() => {});
    await eventLog.deleteTopic(topic).catch(() => {});
    await eventLog.close();
    await deleteRedisPrefix(redisUrl, queuePrefix);
    await db.close();
    await database.drop();
    await mosquitto.stop();
  };
  try {
    await migrate(db);
    // Ingest first, as in one process: its log topic exists before the rules worker consumes it.
    for (const role of ['ingest', 'rules-worker', 'notifier'] as const)
      children.push(
        await startApartChild({ role, env, streamPrefix, topic, queuePrefix, shareGroup: `bench-${run}` }),
      );
  } catch (error) {
    await cleanUp().catch(() => {});
    await mail.close();
    throw error;
  }
  const fleet = await createBenchFleet(db, DEVICES);
  console.log(
    `distributed-apart: ${fleet.devices.length} devices, ${fleet.rules} rules, ${fleet.firingRules} with an email action`,
  );
  const publishers = await connectDevicePublishers(mosquitto.url, `bench-apart-${run}`, fleet.devices);
  return {
    name: 'distributed-apart (ingest, rules worker and notifier in processes of their own: PostgreSQL, NATS JetStream, BullMQ on Redis, own Mosquitto, nodemailer)',
    mail,
    publishers,
    accepted: countPubacks(publishers),
    evaluated: async () => Number.NaN,
    window: 0,
    backlog: async () => ({
      'rules-worker lag': await eventLog.lag(topic, 'rules-worker'),
      'storage-writer lag': await eventLog.lag(topic, 'storage-writer'),
    }),
    ...stageReaders(db, fleet.companyId),
    moreStages: bullmqStages(redisUrl, queuePrefix),
    close: async () => {
      await Promise.all(publishers.map((p) => p.client.endAsync()));
      await cleanUp();
      await mail.close();
    },
  };
}

async function ourSide(): Promise<Side> {
  const mail = await startMailSink();
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-rules-'));
  const config = loadConfig({
    PORT: '0',
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_DATA: 'false',
    SIMULATE_DEVICES: '0',
    LOG_LEVEL: 'warn',
    SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
  });
  const platform = await startPlatform({ config, log });
  const ingest = platform.services.find((s) => s.name === 'ingest') as IngestService;
  const fleet = await createBenchFleet(platform.db, DEVICES);
  console.log(
    `ours: ${fleet.devices.length} devices, ${fleet.rules} rules, ${fleet.firingRules} with an email action`,
  );
  // Stages inside ingest without changing it: aedes hands each publish to authorizePublish (where ingest
  // decodes it and waits for the log), and the event log's publish resolves once the log took it.
  const broker = ingest.mqttBroker as Aedes;
  const authorize = broker.authorizePublish;
  broker.authorizePublish = (client, packet, done) => {
    if (traced.size > 0 && client) {
      const m = /"message_id":"b(\d+)"/.exec(String(packet.payload));
      if (m) traceStage('aedes: authorizePublish (ingest starts)', Number(m[1]));
    }
    return authorize.call(broker, client, packet, done);
  };
  const eventLog = ingest.eventLog;
  const logPublish = eventLog.publish.bind(eventLog);
  eventLog.publish = async (topic, records) => {
    await logPublish(topic, records);
    if (traced.size === 0) return;
    for (const r of records) {
      const id = (r.value as { messageId?: unknown })?.messageId;
      if (typeof id === 'string' && id.startsWith('b'))
        traceStage('event log: publish resolved', Number(id.slice(1)));
    }
  };
  const url = `mqtt://127.0.0.1:${ingest.mqttPort}`;
  const publishers = await Promise.all(
    fleet.devices.map(async (d) => ({
      client: await mqtt.connectAsync(url, { username: d.uuid, password: d.token, reconnectPeriod: 0 }),
      topics: [`devices/${d.uuid}/up`],
      next: 0,
    })),
  );
  const accepted = countPubacks(publishers);
  return {
    name: 'ours (platform in-process: aedes, PGlite, in-process log and queue, nodemailer)',
    mail,
    publishers,
    accepted,
    evaluated: async () => accepted() - (await ingest.eventLog.lag(ingest.topic, 'rules-worker')),
    window: WINDOW_OURS,
    backlog: async () => ({
      'rules-worker lag': await ingest.eventLog.lag(ingest.topic, 'rules-worker'),
      'storage-writer lag': await ingest.eventLog.lag(ingest.topic, 'storage-writer'),
    }),
    ...stageReaders(platform.db, fleet.companyId),
    threads: pgliteThread(platform.db),
    close: async () => {
      await Promise.all(publishers.map((p) => p.client.endAsync()));
      for (const s of [...platform.services].reverse()) await s.stop();
      await mail.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ----------------------------------------------------------------------------------------------- floor
interface FloorOptions {
  /**
   * `pooled`: the notifier's transport (a pool, TCP_NODELAY); `default`: nodemailer's default (Node-RED's:
   * a connection per mail, Nagle on); `fresh`: a connection per mail with TCP_NODELAY (splits the two).
   */
  transport: 'pooled' | 'default' | 'fresh';
  /** `own`: a Mosquitto with the shipped configuration; `machine`: MOSQUITTO_URL (Node-RED's); `aedes`: in-process. */
  broker: 'own' | 'machine' | 'aedes';
}

/**
 * The harness's floor: the same publishers (QoS 1) and SMTP sink, and nothing between but a bare MQTT
 * subscriber (or, on aedes, the broker's publish event) that mails each firing uplink at once. What
 * the bench can show at best for a side using that broker and mail transport.
 */
async function floorSide(o: FloorOptions): Promise<Side> {
  const mail = await startMailSink();
  const mosquitto = o.broker === 'own' ? await startOwnMosquitto() : undefined;
  const prefix = `bench-floor-${randomBytes(4).toString('hex')}`;
  const smtpUrl = `smtp://127.0.0.1:${mail.port}`;
  const transport =
    o.transport === 'pooled'
      ? nodemailer.createTransport(transportOptions(smtpUrl, { maxConnections: 32 }))
      : o.transport === 'fresh'
        ? nodemailer.createTransport({
            ...(transportOptions(smtpUrl, { maxConnections: 1 }) as object),
            pool: false,
          } as Parameters<typeof nodemailer.createTransport>[0])
        : nodemailer.createTransport(smtpUrl);
  const onUplink = (payload: Buffer) => {
    const body = JSON.parse(payload.toString()) as { temperature?: number };
    const v = body.temperature;
    if (typeof v !== 'number' || v < THRESHOLD) return;
    transport
      .sendMail({
        from: 'floor <no-reply@localhost>',
        to: 'bench@example.test',
        subject: `bench ${v}`,
        text: `temperature ${v}`,
      })
      .catch((error: unknown) => log.warn({ err: error }, 'floor mail failed'));
  };
  let url: string;
  let closeBroker: () => Promise<void>;
  let subscriber: MqttClient | undefined;
  if (o.broker === 'aedes') {
    const broker = await Aedes.createBroker();
    broker.on('publish', (packet, client) => {
      if (client) onUplink(packet.payload as Buffer);
    });
    const server = createNetServer(broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `mqtt://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    closeBroker = async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
  } else {
    url = mosquitto?.url ?? MOSQUITTO_URL;
    subscriber = await mqtt.connectAsync(url, { clientId: `${prefix}-sub`, reconnectPeriod: 0 });
    subscriber.on('message', (_topic, payload) => onUplink(payload));
    await subscriber.subscribeAsync(`${prefix}/+/up`, { qos: 1 });
    closeBroker = async () => {
      await subscriber?.endAsync();
      await mosquitto?.stop();
    };
  }
  // aedes: one connection per device, as ours; Mosquitto: a few connections, as Node-RED's publishers.
  const connections = o.broker === 'aedes' ? DEVICES : MOSQUITTO_CONNECTIONS;
  const publishers = await connectPublishers(url, prefix, connections);
  const accepted = countPubacks(publishers);
  return {
    name:
      `floor: ${o.broker === 'aedes' ? 'aedes in-process' : o.broker === 'own' ? 'own Mosquitto' : 'machine Mosquitto'}, ` +
      `${{ pooled: 'pool + TCP_NODELAY', default: 'default transport', fresh: 'connection per mail + TCP_NODELAY' }[o.transport]}` +
      ` (bare subscriber, nodemailer ${{ pooled: "with the notifier's transport options", default: "default transport as Node-RED's", fresh: 'without a pool, Nagle off' }[o.transport]})`,
    mail,
    publishers,
    accepted,
    evaluated: async () => Number.NaN,
    window: 0,
    close: async () => {
      await Promise.all(publishers.map((p) => p.client.endAsync()));
      await closeBroker();
      transport.close();
      await mail.close();
    },
  };
}

// -------------------------------------------------------------------------------------------- Node-RED
interface NodeRed {
  init: (server: Server, settings: Record<string, unknown>) => void;
  start: () => Promise<void>;
  stop: () => Promise<void>;
}

/** The ten conditions with the rules engine's episode semantics (fire once per episode, re-arm when it ends). */
const CONDITIONS_FUNCTION = `
const bench = global.get('bench');
const conditions = ${JSON.stringify(CONDITIONS)};
const v = msg.payload && msg.payload.temperature;
if (typeof v !== 'number') return null;
const key = msg.topic;
const state = context.get(key) || { prev: null, holding: conditions.map(() => false) };
let fired = null;
for (let i = 0; i < conditions.length; i++) {
  const c = conditions[i];
  let holds;
  switch (c.operator) {
    case 'lte': holds = v <= c.value; break;
    case 'gte': holds = v >= c.value; break;
    case 'eq': holds = Math.abs(v - c.value) <= 1e-9 * Math.max(1, Math.abs(v), Math.abs(c.value)); break;
    case 'in': holds = v >= c.rangeMin && v <= c.rangeMax; break;
    case 'out': holds = v < c.rangeMin || v > c.rangeMax; break;
    case 'rie': holds = state.holding[i] ? v >= c.value : state.prev !== null && state.prev < c.value && v >= c.value; break;
    case 'fae': holds = state.holding[i] ? v <= c.value : state.prev !== null && state.prev > c.value && v <= c.value; break;
  }
  if (holds && !state.holding[i] && c.fires) fired = { field: 'temperature', value: v };
  state.holding[i] = holds;
}
state.prev = v;
context.set(key, state);
bench.evaluated();
if (!fired) return null;
msg.fired = fired;
return msg;
`;

const SEND_FUNCTION = `
const bench = global.get('bench');
const subject = ${JSON.stringify(SUBJECT)}.replace('{value}', String(msg.fired.value));
bench.transport.sendMail({
  from: 'Node-RED <no-reply@localhost>',
  to: 'bench@example.test',
  subject,
  text: msg.topic + ': temperature ' + msg.fired.value,
}).then(() => node.done(), (err) => node.done(err));
return null;
`;

async function nodeRedSide(): Promise<Side> {
  const mail = await startMailSink();
  const userDir = mkdtempSync(join(tmpdir(), 'iot-bench-node-red-'));
  const prefix = `bench-node-red-${randomBytes(4).toString('hex')}`;
  const mosquitto = NODE_RED_OWN_MOSQUITTO ? await startOwnMosquitto() : undefined;
  const brokerUrl = mosquitto?.url ?? MOSQUITTO_URL;
  const u = new URL(brokerUrl);
  const flows = [
    { id: 'tab1', type: 'tab', label: 'bench' },
    {
      id: 'broker1',
      type: 'mqtt-broker',
      name: 'mosquitto',
      broker: u.hostname,
      port: u.port || '1883',
      clientid: `${prefix}-sub`,
      autoConnect: true,
      usetls: false,
      protocolVersion: '4',
      keepalive: '60',
      cleansession: true,
    },
    {
      id: 'in1',
      type: 'mqtt in',
      z: 'tab1',
      name: 'uplinks',
      topic: `${prefix}/+/up`,
      qos: '1',
      datatype: 'json',
      broker: 'broker1',
      nl: false,
      rap: true,
      rh: 0,
      inputs: 0,
      wires: [['cond1']],
    },
    {
      id: 'cond1',
      type: 'function',
      z: 'tab1',
      name: 'ten conditions',
      func: CONDITIONS_FUNCTION,
      outputs: 1,
      wires: [['mail1']],
    },
    {
      id: 'mail1',
      type: 'function',
      z: 'tab1',
      name: 'send email',
      func: SEND_FUNCTION,
      outputs: 0,
      wires: [],
    },
  ];
  const flowFile = join(userDir, 'flows.json');
  writeFileSync(flowFile, JSON.stringify(flows));
  let evaluated = 0;
  // One connection per mail (nodemailer's default transport, no pool); our notifier keeps a pool of
  // connections (SMTP_POOL_CONNECTIONS).
  const transport = nodemailer.createTransport(`smtp://127.0.0.1:${mail.port}`);
  const require = createRequire(import.meta.url);
  const RED = require('node-red') as NodeRed;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  RED.init(server, {
    userDir,
    flowFile,
    httpAdminRoot: false,
    httpNodeRoot: false,
    disableEditor: true,
    credentialSecret: false,
    logging: { console: { level: 'warn', metrics: false, audit: false } },
    functionGlobalContext: {
      bench: {
        transport,
        evaluated: () => {
          evaluated += 1;
        },
      },
    },
    externalModules: { autoInstall: false, palette: { allowInstall: false } },
  });
  await RED.start();
  const publishers = await connectPublishers(brokerUrl, prefix, MOSQUITTO_CONNECTIONS);
  const accepted = countPubacks(publishers);
  // Wait until the mqtt in node has subscribed: a probe uplink must be evaluated.
  const probeBy = performance.now() + 15_000;
  while (evaluated === 0 && performance.now() < probeBy) {
    await publishers[0]?.client.publishAsync(`${prefix}/probe/up`, JSON.stringify({ temperature: BELOW }), {
      qos: 1,
    });
    await sleep(200);
  }
  if (evaluated === 0) {
    await mosquitto?.stop();
    throw new Error('Node-RED never received an uplink from Mosquitto');
  }
  const base = evaluated;
  const baseAccepted = accepted();
  return {
    name: `Node-RED 4 (embedded; mqtt in from ${mosquitto ? 'its own Mosquitto' : brokerUrl}, 2 function nodes, nodemailer)`,
    mail,
    publishers,
    accepted: () => accepted() - baseAccepted,
    evaluated: async () => evaluated - base,
    window: WINDOW_NODE_RED,
    close: async () => {
      await Promise.all(publishers.map((p) => p.client.endAsync()));
      await RED.stop();
      await mosquitto?.stop();
      transport.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mail.close();
      rmSync(userDir, { recursive: true, force: true });
    },
  };
}

// ------------------------------------------------------------------------------------------------- run
type Latency = Awaited<ReturnType<typeof latencyPhase>>;
interface Figures {
  side: string;
  all: Latency;
  few: Latency;
  throughput: Awaited<ReturnType<typeof throughputPhase>>;
  duplicates: number;
}

/** A latency ratio; a side that never delivered its p99 within the bound has no finite ratio. */
function ratioText(a: number, b: number): string {
  return Number.isFinite(a) && Number.isFinite(b) ? `${(a / b).toFixed(2)}x` : 'n/a (mails missing)';
}

/** p99 as text; mails still missing at the end of the drain bound make it "> bound". */
function p99Text(l: Latency): string {
  if (Number.isFinite(l.p99)) return fmt(l.p99);
  return `> ${fmt(DRAIN_MS)} (${fmt(l.expected - l.delivered)} never arrived)`;
}

function describe(what: string, l: Latency): string {
  const stages = l.stages
    .map((s) => `\n    ${s.stage}: p50 ${s.p50.toFixed(1)} / p99 ${s.p99.toFixed(1)} ms (${fmt(s.n)})`)
    .join('');
  return (
    `${what}: ${fmt(l.offered)} uplinks/s offered, ${fmt(l.published)} published (${fmt(l.failed)} failed), ` +
    `${fmt(l.delivered)} of ${fmt(l.expected)} mails accepted by SMTP, waited ${fmt(l.drainMs)} ms after ` +
    `publishing stopped; p50 ${fmt(l.p50)} ms, p99 ${p99Text(l)} ms; load ${loadavg()[0]?.toFixed(1)}; ` +
    `event loop delay while publishing p50 ${fmt(l.loop.p50)} / p99 ${fmt(l.loop.p99)} / max ${fmt(l.loop.max)} ms; ` +
    `threads busy (publishing and drain): ${Object.entries(l.busy)
      .map(([name, u]) => `${name} ${Math.round(u.share * 100)} % (${fmt(u.ms)} ms)`)
      .join(', ')}` +
    (l.fired.n > 0
      ? `\n  stages from publish: firing logged by the rules worker (its transaction's start) p50 ${fmt(l.fired.p50)} / ` +
        `p99 ${fmt(l.fired.p99)} ms (${fmt(l.fired.n)}); job key claimed (job_keys row) p50 ` +
        `${fmt(l.claimed.p50)} / p99 ${fmt(l.claimed.p99)} ms (${fmt(l.claimed.n)}); notify job claim -> completed p50 ${fmt(l.job.p50)} / p99 ${fmt(l.job.p99)} ms ` +
        `(${fmt(l.job.n)}); max backlog ${JSON.stringify(l.maxBacklog)}` +
        Object.entries(l.more)
          .map(
            ([name, s]) => `\n  from publish: ${name} p50 ${fmt(s.p50)} / p99 ${fmt(s.p99)} ms (${fmt(s.n)})`,
          )
          .join('')
      : '') +
    (Object.keys(l.missingWhy).length > 0
      ? `\n  mails missing, by what the rules worker logged: ${JSON.stringify(l.missingWhy)}`
      : '') +
    (stages ? `\n  stages from publish (in-process timestamps), p50 / p99:${stages}` : '')
  );
}

const CPU_PROFILE_DIR = process.env.RULES_BENCH_CPU_PROFILE;

/** With RULES_BENCH_CPU_PROFILE: runs `fn` under the inspector's CPU profiler and writes the profile. */
async function withCpuProfile<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!CPU_PROFILE_DIR) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(CPU_PROFILE_DIR, { recursive: true });
    const file = join(CPU_PROFILE_DIR, `${name.replace(/[^\w.-]+/g, '_')}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`CPU profile of the phase: ${file}`);
    session.disconnect();
  }
}

async function runSide(open: () => Promise<Side>): Promise<Figures> {
  const side = await open();
  try {
    console.log(`\n== ${side.name}`);
    // Warm-up: device lookups cached, JIT, first SMTP connections. 5 s at 40 uplinks/s: every device
    // sends two uplinks, the second fires (100 mails at 40/s in the second half). Until 2026-11-21 16:10
    // UTC it was 1 s: 40 uplinks, none a device's second, so no mail at all, and the first mails of the
    // 1 in 50 phase each opened an SMTP connection (about 105 ms: smtp-server holds its greeting 100 ms),
    // which alone put its p99 above 100 ms (floor line: 3 of 160 mails, p99 109 ms).
    await latencyPhase(side, 40, 5, 2);
    // Order matters: the phase that may leave a backlog of mails runs last. A side that cannot count
    // its evaluations (window 0: the distributed one) has no throughput phase.
    const throughput =
      side.window > 0
        ? await throughputPhase(side, THROUGHPUT_S)
        : {
            published: 0,
            failed: 0,
            evaluated: 0,
            uplinksPerSecond: Number.NaN,
            evaluationsPerSecond: Number.NaN,
          };
    if (side.window > 0)
      console.log(
        `throughput (nothing fires, closed loop, window ${side.window}): ${fmt(throughput.evaluated)} of ` +
          `${fmt(throughput.published)} uplinks evaluated (${fmt(throughput.failed)} failed): ` +
          `${fmt(throughput.uplinksPerSecond)} uplinks/s = ${fmt(throughput.evaluationsPerSecond)} rule evaluations/s; ` +
          `load ${loadavg()[0]?.toFixed(1)}`,
      );
    // The storage writer may still be behind after the closed loop: start the latency phases idle.
    const idleBy = performance.now() + DRAIN_MS;
    while (side.backlog && performance.now() < idleBy) {
      if (Object.values(await side.backlog()).every((v) => v === 0)) break;
      await sleep(50);
    }
    const few = await withCpuProfile(`${side.name}-1in${FEW_PERIOD}`, () =>
      latencyPhase(side, RATE, FEW_S, FEW_PERIOD),
    );
    console.log(describe(`1 in ${FEW_PERIOD} uplinks fires (${FIRING}), ${FEW_S} s`, few));
    const all = await withCpuProfile(`${side.name}-every2nd`, () => latencyPhase(side, RATE, LATENCY_S, 2));
    console.log(describe(`every second uplink fires, ${LATENCY_S} s`, all));
    return { side: side.name, all, few, throughput, duplicates: side.mail.duplicates };
  } finally {
    await side.close();
  }
}

if (CHILD) await apartChildMain(CHILD);
else await main();

async function main(): Promise<void> {
  console.log(
    `rules benchmark ${new Date().toISOString()} on ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ` +
      `${DEVICES} devices x ${CONDITIONS.length} rules at ${RATE} uplinks/s; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const results: Figures[] = [];
  /** Floors: `floor` (in all and both) is the pooled transport on a Mosquitto of its own; `floors` runs every variant. */
  const FLOORS: Record<string, FloorOptions> = {
    floor: { transport: 'pooled', broker: 'own' },
    'floor-aedes': { transport: 'pooled', broker: 'aedes' },
    'floor-default': { transport: 'default', broker: 'own' },
    'floor-fresh': { transport: 'fresh', broker: 'own' },
    'floor-default-machine': { transport: 'default', broker: 'machine' },
    'floor-machine': { transport: 'pooled', broker: 'machine' },
  };
  for (const [name, floor] of Object.entries(FLOORS)) {
    const runs =
      which === name || which === 'floors' || (name === 'floor' && (which === 'all' || which === 'both'));
    if (!runs) continue;
    try {
      results.push(await runSide(() => floorSide(floor)));
    } catch (err) {
      console.log(`${name} failed: ${(err as Error).stack ?? err}`);
    }
  }
  if (which === 'ours' || which === 'both' || which === 'all') results.push(await runSide(ourSide));
  if (which === 'distributed' || which === 'all') {
    try {
      results.push(await runSide(distributedSide));
    } catch (err) {
      console.log(`distributed side failed: ${(err as Error).stack ?? err}`);
    }
  }
  if (which === 'distributed-apart' || which === 'all') {
    try {
      results.push(await runSide(distributedApartSide));
    } catch (err) {
      console.log(`distributed-apart side failed: ${(err as Error).stack ?? err}`);
    }
  }
  if (which === 'node-red' || which === 'both' || which === 'all') {
    try {
      results.push(await runSide(nodeRedSide));
    } catch (err) {
      console.log(`Node-RED side failed: ${(err as Error).stack ?? err}`);
    }
  }
  console.log('');
  console.table(
    results.map((r) => ({
      side: r.side.split(' (')[0],
      'every 2nd fires: mails': `${fmt(r.all.delivered)} / ${fmt(r.all.expected)}`,
      'p50 / p99 ms': `${Number.isFinite(r.all.p50) ? fmt(r.all.p50) : `> ${fmt(DRAIN_MS)}`} / ${p99Text(r.all)}`,
      [`1 in ${FEW_PERIOD} fires: mails`]: `${fmt(r.few.delivered)} / ${fmt(r.few.expected)}`,
      'p50 / p99 ms ': `${fmt(r.few.p50)} / ${p99Text(r.few)}`,
      'rule evaluations/s': Number.isFinite(r.throughput.evaluationsPerSecond)
        ? fmt(r.throughput.evaluationsPerSecond)
        : 'n/a',
      duplicates: r.duplicates,
    })),
  );
  const ours = results.find((r) => r.side.startsWith('ours'));
  const distributed = results.find((r) => r.side.startsWith('distributed ('));
  const apart = results.find((r) => r.side.startsWith('distributed-apart'));
  const red = results.find((r) => r.side.startsWith('Node-RED'));
  for (const [name, side] of [
    ['ours', ours],
    ['distributed', distributed],
    ['distributed-apart', apart],
  ] as const) {
    if (!side) continue;
    for (const [what, l] of [
      ['every second uplink firing', side.all],
      [`1 in ${FEW_PERIOD} firing`, side.few],
    ] as const) {
      console.log(
        `target ${name} p99 < 100 ms at ${RATE} uplinks/s, ${what}: ${l.p99 < 100 ? 'MET' : 'NOT MET'} (${p99Text(l)} ms)`,
      );
    }
  }
  if (ours && red) {
    const ratio = ours.throughput.evaluationsPerSecond / red.throughput.evaluationsPerSecond;
    console.log(
      `ours / Node-RED: rule evaluations/s ${ratio.toFixed(2)}x (target >= 3x: ${ratio >= 3 ? 'MET' : 'NOT MET'}); ` +
        `p99 every second firing ${ratioText(ours.all.p99, red.all.p99)}, 1 in ${FEW_PERIOD} ${ratioText(ours.few.p99, red.few.p99)}`,
    );
  }
  console.log(
    `load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  process.exit(0);
}
