/** Ours in the distributed profile with ingest, the rules worker and the notifier each in a process of its own. */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@iot/config';
import { migrate, openDb } from '@iot/db';
import { createTestDb } from '@iot/db/testing';
import { createNatsEventLog } from '@iot/event-log';
import { startIngest } from '@iot/ingest';
import { deleteRedisPrefix, openJobQueue } from '@iot/jobs';
import { startNotifier } from '@iot/notifier';
import { startRulesWorker } from '@iot/rules-worker';
import { createLogger } from '@iot/runtime';
import { startOwnMosquitto } from '../lib/mosquitto.js';
import { INGEST_NODE_FLAGS, PLATFORM_NODE_FLAGS } from '../lib/node-flags.js';
import { bullmqStages, connectDevicePublishers, createBenchFleet, stageReaders } from './fleet.js';
import { startMailSink } from './mail-sink.js';
import { DEVICES, oursSmtpUrl, WINDOW_OURS } from './settings.js';
import { countPubacks, evaluatedInProcess, type Side } from './side.js';
import {
  type ApartChildOptions,
  childOutbox,
  type StageRecord,
  stageRelays,
  traced,
  traceStage,
} from './stages.js';

// ------------------------------------------------------------------------------ distributed, apart
/** RULES_BENCH_CHILD_CPU_PROFILE=<dir>: V8 CPU profiles of each child's threads, in <dir>/<role>/ at exit. */
const CHILD_CPU_PROFILE = process.env.RULES_BENCH_CHILD_CPU_PROFILE;
export async function apartChildMain(o: ApartChildOptions): Promise<void> {
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
    const env = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
    const tuning = {
      maxInFlight: env('RULES_BENCH_RW_IN_FLIGHT'),
      maxWaitMs: env('RULES_BENCH_RW_WAIT_MS'),
      maxBatch: env('RULES_BENCH_RW_BATCH'),
    };
    const set = Object.fromEntries(Object.entries(tuning).filter(([, v]) => v !== undefined));
    const worker = await startRulesWorker({ config, db, log, eventLog, topic: o.topic, queue, ...set });
    stops.push(() => worker.stop());
  } else {
    const notifier = await startNotifier({ config, db, log, queue: openQueue() });
    stops.push(() => notifier.stop());
  }
  const flush = setInterval(() => {
    if (childOutbox.length > 0) process.send?.({ stages: childOutbox.splice(0) });
  }, 5);
  // The rules worker's count of evaluated uplinks, for the throughput phase's closed loop; every child's
  // CPU so far (us), for the phase's CPU per uplink of each process.
  const counting = setInterval(() => {
    const { user, system } = process.cpuUsage();
    if (o.role !== 'rules-worker') process.send?.({ cpu: user + system });
    else void evaluatedInProcess().then((evaluated) => process.send?.({ evaluated, cpu: user + system }));
  }, 20);
  process.on('message', (m: 'stop' | { trace?: number; clear?: boolean }) => {
    if (m === 'stop') {
      clearInterval(flush);
      clearInterval(counting);
      void (async () => {
        for (const stop of stops.reverse()) await stop().catch(() => {});
        process.exit(0);
      })();
    } else if (m.trace !== undefined) traced.add(m.trace);
    else if (m.clear) traced.clear();
  });
  process.send?.({ ready: true });
}

interface ApartChild {
  role: ApartChildOptions['role'];
  evaluated: () => number;
  /** The child's CPU time so far (us, every thread), as last reported (every 20 ms). */
  cpu: () => number;
  stop: () => Promise<void>;
}

/** Starts one app of the apart side in a process of its own; resolves once it is running. */
async function startApartChild(o: ApartChildOptions): Promise<ApartChild> {
  const child = fork(fileURLToPath(new URL('../rules.bench.ts', import.meta.url)), [], {
    execArgv: [
      ...(o.role === 'ingest' ? INGEST_NODE_FLAGS : []),
      // The platform's flags are this process's, not the apps' (their own package.json `npm start`).
      ...process.execArgv.filter((flag) => !PLATFORM_NODE_FLAGS.includes(flag)),
      // A directory per role: tsx's loader thread writes a profile of its own beside the main thread's.
      ...(CHILD_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(CHILD_CPU_PROFILE, o.role)}`] : []),
    ],
    env: { ...process.env, IOT_RULES_BENCH_CHILD: JSON.stringify(o) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let evaluated = 0;
  let cpu = 0;
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${o.role} process exited with ${code}`)));
    child.on(
      'message',
      (m: { ready?: boolean; stages?: StageRecord[]; evaluated?: number; cpu?: number }) => {
        for (const [stage, seq, at] of m.stages ?? []) traceStage(stage, seq, at);
        if (m.evaluated !== undefined) evaluated = m.evaluated;
        if (m.cpu !== undefined) cpu = m.cpu;
        if (m.ready) resolve();
      },
    );
  });
  child.removeAllListeners('exit');
  stageRelays.add(child);
  return {
    role: o.role,
    evaluated: () => evaluated,
    cpu: () => cpu,
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
 * over IPC, the rules worker its evaluation counter too; the API is not started (nothing in this path uses it).
 */
export async function distributedApartSide(): Promise<Side> {
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
    SMTP_URL: oursSmtpUrl(mail.port),
  };
  const config = loadConfig(env);
  const db = await openDb(config);
  const eventLog = await createNatsEventLog({ servers: natsUrl, streamPrefix });
  const children: ApartChild[] = [];
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
    // Children start in the order ingest, rules worker, notifier.
    evaluated: async () => children[1]?.evaluated() ?? 0,
    processCpu: () => Object.fromEntries(children.map((c) => [c.role, c.cpu()])),
    window: WINDOW_OURS,
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
