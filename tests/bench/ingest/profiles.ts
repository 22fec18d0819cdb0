/** The two platforms under test: embedded in this process, distributed with ingest in processes of its own. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@iot/config';
import { migrate, openPostgres } from '@iot/db';
import { createInProcessEventLog, createNatsEventLog } from '@iot/event-log';
import { type IngestService, UPLINKS_TOPIC } from '@iot/ingest';
import { startPlatform } from '@iot/platform';
import pg from 'pg';
import { startOwnMosquitto } from '../lib/mosquitto.js';
import { createDevices } from './fleet.js';
import { type ChildOptions, startBenchIngest, startIngestProcess } from './processes.js';
import {
  DEVICES,
  INGEST_MQTT_CONNECTIONS,
  INGEST_PROCESSES,
  INGEST_WINDOW,
  log,
  MOSQUITTO,
  PG_ADMIN,
} from './settings.js';
import type { Target } from './target.js';

// -------------------------------------------------------------------------------------------- profiles
/**
 * `ack`: `durable` is the platform as shipped (202 and PUBACK once the storage writer committed the
 * uplink, finding 6 of #28); `on-append` hands ingest an in-process log without that wait, acknowledging
 * once the uplink is in memory as before: the baseline that shows what the durable acknowledgement costs.
 */
export async function embeddedTarget(
  ack: 'durable' | 'on-append' = 'durable',
): Promise<{ target: Target; close: () => Promise<void> }> {
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
  const onAppend = ack === 'on-append' ? createInProcessEventLog() : undefined;
  const platform = await startPlatform({
    config,
    log,
    ...(onAppend ? { isolation: { eventLog: onAppend } } : {}),
  });
  const ingest = platform.services.find((s) => s.name === 'ingest') as IngestService;
  const { companyId, devices } = await createDevices(platform.db, DEVICES);
  return {
    target: {
      name: `embedded (PGlite, aedes, in-process log)${onAppend ? ', acknowledged on append (not durable)' : ''}`,
      key: onAppend ? 'embedded, ack on append' : 'embedded',
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
      await onAppend?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function distributedTarget(): Promise<{ target: Target; close: () => Promise<void> }> {
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
