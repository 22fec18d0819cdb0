import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '@iot/api';
import type { Config } from '@iot/config';
import {
  type Db,
  databaseChecks,
  ensureDatabase,
  migrate,
  openDb,
  startDbMaintenance,
  startRollupBuilder,
} from '@iot/db';
import { aedesPublish } from '@iot/delivery';
import { DEMO_LOGINS, DEMO_PASSWORD, seedDemoData } from '@iot/demo-data';
import { type StartIngestOptions, startIngest } from '@iot/ingest';
import { openJobQueue } from '@iot/jobs';
import { startNotifier } from '@iot/notifier';
import { startRulesWorker } from '@iot/rules-worker';
import { Health, type Logger, type Service } from '@iot/runtime';
import { startDemoFleet } from '@iot/simulator';
import { PLATFORM_VERSION } from './version.js';

export interface RunningPlatform {
  url: string;
  /** Base URL of the HTTP uplink front door (`…/ingest/v1`), when it listens. */
  ingestUrl: string | undefined;
  /** Port of the embedded MQTT broker, when it runs. */
  mqttPort: number | undefined;
  db: Db;
  services: Service[];
  /** Readiness of the whole process (GET /health/ready); drain it on SIGTERM. */
  health: Health;
  /** What `npm start` prints: where to go and how to sign in. */
  banner: string;
}

/**
 * Opens the database: PostgreSQL when DATABASE_URL is set (required in the distributed profile),
 * otherwise PGlite files under DATA_DIR.
 */
async function openProfileDb(config: Config, onLost?: (error: Error) => void): Promise<Db> {
  if (!config.DATABASE_URL) mkdirSync(resolve(config.DATA_DIR), { recursive: true });
  else await ensureDatabase(config.DATABASE_URL);
  return openDb(config, onLost ? { onLost } : {});
}

/**
 * Cookies must survive restarts, so without a configured secret the embedded profile generates one once
 * and keeps it beside its data.
 */
function sessionSecret(config: Config): string {
  if (config.SESSION_SECRET) return config.SESSION_SECRET;
  mkdirSync(resolve(config.DATA_DIR), { recursive: true });
  const file = join(resolve(config.DATA_DIR), 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The built console sits beside the platform bundle in the repository: apps/console/dist. */
function defaultConsoleDir(): string | undefined {
  const dir = fileURLToPath(new URL('../../console/dist', import.meta.url));
  return existsSync(join(dir, 'index.html')) ? dir : undefined;
}

/**
 * What a test on shared servers (the machine's NATS, Redis and MQTT broker) gives the platform so that it
 * touches only its own streams, keys and sessions; `npm start` passes none of these.
 */
export interface PlatformIsolation {
  /** The event log of ingest and the rules worker, e.g. NATS with a stream prefix of its own (the caller closes it). */
  eventLog?: StartIngestOptions['eventLog'];
  /**
   * Topic the uplinks go through (default `uplinks`). NATS subjects are `<topic>.<partition>` whatever
   * the stream prefix, and JetStream refuses two streams with the same subjects: a topic of its own too.
   */
  uplinksTopic?: string;
  /** Redis key prefix of the BullMQ queues (default `bull`). */
  queuePrefix?: string;
  /** The external broker's share group and client ids (defaults: `ingest`, `ingest-<hostname>`). */
  mqttExternal?: StartIngestOptions['mqttExternal'];
}

export async function startPlatform({
  config: given,
  log,
  isolation = {},
  onDatabaseLost,
}: {
  config: Config;
  log: Logger;
  isolation?: PlatformIsolation;
  /** The embedded database's worker thread died: nothing the platform does can succeed any more. */
  onDatabaseLost?: (error: Error) => void;
}): Promise<RunningPlatform> {
  const db = await openProfileDb(given, onDatabaseLost);
  const config: Config = {
    ...given,
    SESSION_SECRET: sessionSecret(given),
    CONSOLE_DIR: given.CONSOLE_DIR ?? defaultConsoleDir(),
  };
  const { applied } = await migrate(db);
  log.info({ applied: applied.length, database: db.kind }, 'database migrated');

  let demo = false;
  if (config.DEMO_DATA) {
    const result = await seedDemoData(db);
    demo = true;
    log.info({ seeded: result.seeded }, result.seeded ? 'demo data written' : 'demo data already present');
  }

  const services: Service[] = [{ name: 'db', stop: () => db.close() }];
  // PGlite has no autovacuum: without this its tables have no statistics, keep every dead row version and
  // never freeze (packages/db README, "Maintenance"). PostgreSQL runs autovacuum itself.
  if (db.kind === 'pglite') {
    services.push(startDbMaintenance({ db, log: log.child({ service: 'db-maintenance' }) }));
  }
  // Ingest first: the API publishes console downlinks through ingest's embedded broker and tells ingest's
  // device cache when a device or its token changed.
  const ingest = await startIngest({
    config,
    db,
    log,
    ...(isolation.eventLog ? { eventLog: isolation.eventLog } : {}),
    ...(isolation.uplinksTopic ? { publisher: { topic: isolation.uplinksTopic } } : {}),
    ...(isolation.mqttExternal ? { mqttExternal: isolation.mqttExternal } : {}),
  });
  services.push(ingest);
  const publishDownlink = ingest.mqttBroker ? aedesPublish(ingest.mqttBroker) : undefined;

  const health = new Health().add(...databaseChecks(db), ...(ingest.checks ?? []));
  const app = await buildApp({
    config,
    db,
    health,
    version: PLATFORM_VERSION,
    logger: log.child({ app: 'api' }),
    onDeviceChanged: (deviceId) => ingest.invalidateDevice(deviceId),
    onCompanyChanged: (companyId) => ingest.invalidateCompany(companyId),
    ...(publishDownlink ? { publishDownlink } : {}),
  });
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const port = new URL(address).port;
  const url = `http://localhost:${port}`;
  services.push({ name: 'api', stop: () => app.close() });

  // One event log (ingest's) and one job queue for the whole process: in the embedded profile both are
  // in-process, so the rules worker must consume ingest's log and hand its jobs to the notifier's queue.
  // Services stop in reverse order: the worker and the notifier before the queue, all before ingest's log.
  const queue = openJobQueue(config, {
    db,
    ...(isolation.queuePrefix ? { prefix: isolation.queuePrefix } : {}),
  });
  services.push({ name: 'job-queue', stop: () => queue.close() });
  const rulesWorker = await startRulesWorker({
    config,
    db,
    log,
    eventLog: ingest.eventLog,
    topic: ingest.topic,
    queue,
  });
  services.push(rulesWorker);
  const notifier = await startNotifier({
    config,
    db,
    log,
    queue,
    ...(publishDownlink ? { publishDownlink } : {}),
  });
  services.push(notifier);
  // The worker and notifier share ingest's log and this queue: their checks name the same parts once.
  health.add(...(rulesWorker.checks ?? []).filter((c) => c.name !== 'event_log'));
  // Chart rollups built ahead of reads (stops first: services stop in reverse order).
  services.push(startRollupBuilder({ db, log: log.child({ service: 'rollup-builder' }) }));
  // Demo devices sending through the embedded broker, so the console is alive on first start.
  const simulated = config.SIMULATE_DEVICES ?? (config.PROFILE === 'embedded' && demo ? 10 : 0);
  if (simulated > 0 && ingest.mqttPort !== undefined) {
    services.push(await startDemoFleet({ db, log, mqttPort: ingest.mqttPort, devices: simulated }));
  }

  const lines = [
    '',
    `  IoT platform ${PLATFORM_VERSION} (${config.PROFILE} profile, ${db.kind})`,
    `  Console and API:  ${url}`,
    `  API docs:         ${url}/api/v1/docs`,
  ];
  if (ingest.httpUrl)
    lines.push(`  Uplinks (HTTP):   ${ingest.httpUrl.replace(/\/\/[^/:]+/, '//localhost')}`);
  if (ingest.mqttPort !== undefined) lines.push(`  Uplinks (MQTT):   mqtt://localhost:${ingest.mqttPort}`);
  if (!config.CONSOLE_DIR) lines.push('  (console not built: run `npm run build` to serve it here)');
  if (demo) {
    lines.push(`  Demo logins (password ${DEMO_PASSWORD}):`);
    for (const login of DEMO_LOGINS) lines.push(`    ${login.email.padEnd(18)} ${login.role}`);
  }
  lines.push('', '');
  return {
    url,
    ingestUrl: ingest.httpUrl,
    mqttPort: ingest.mqttPort,
    db,
    services,
    health,
    banner: lines.join('\n'),
  };
}
