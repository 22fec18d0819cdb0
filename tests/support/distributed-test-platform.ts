/**
 * The whole platform in the test's own process in the distributed profile, as `PROFILE=distributed npm
 * start` runs it: a fresh PostgreSQL database, the machine's NATS JetStream as event log (a stream prefix
 * and an uplinks topic of its own), BullMQ on the machine's Redis (a key prefix of its own) and the
 * machine's MQTT broker (clean sessions, client ids and share group of its own), with the demo data.
 * Extra configuration (SMTP_URL, TWILIO_*) comes through `env`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@iot/config';
import type { Db } from '@iot/db';
import { createTestDb } from '@iot/db/testing';
import { createNatsEventLog } from '@iot/event-log';
import { deleteRedisPrefix } from '@iot/jobs';
import { startPlatform } from '@iot/platform';
import { createLogger, type Service } from '@iot/runtime';

export const NATS_URL = 'nats://127.0.0.1:4222';
export const REDIS_URL = 'redis://127.0.0.1:6379';
export const MOSQUITTO_URL = 'mqtt://127.0.0.1:1883';

export interface DistributedTestPlatform {
  url: string;
  ingestUrl: string;
  db: Db;
  /** The platform's services (rules worker, notifier, ...), to drive a timer tick by hand. */
  services: readonly Service[];
  stop: () => Promise<void>;
}

export async function startDistributedTestPlatform(
  env: Record<string, string> = {},
): Promise<DistributedTestPlatform> {
  const run = randomBytes(4).toString('hex');
  const database = await createTestDb('postgres');
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-test-distributed-'));
  const topic = `uplinks_${run}`;
  const queuePrefix = `test-${run}`;
  const eventLog = await createNatsEventLog({ servers: NATS_URL, streamPrefix: `test_${run}_` });
  const cleanUp = async () => {
    await eventLog.deleteTopic(topic).catch(() => {});
    await eventLog.close();
    await deleteRedisPrefix(REDIS_URL, queuePrefix);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const config = loadConfig({
      PROFILE: 'distributed',
      DATABASE_URL: database.url ?? '',
      NATS_URL,
      REDIS_URL,
      MQTT_URL: MOSQUITTO_URL,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      // Tests edit users and companies by SQL between requests: no session kept in memory.
      SESSION_CACHE_SECONDS: '0',
      ...env,
    });
    const platform = await startPlatform({
      config,
      log: createLogger({ level: 'warn', name: 'test-distributed-platform' }),
      isolation: {
        eventLog,
        uplinksTopic: topic,
        queuePrefix,
        mqttExternal: {
          shareGroup: `test-${run}`,
          clientIdPrefix: `test-ingest-${run}`,
          cleanSession: true,
          connections: 1,
        },
      },
    });
    if (!platform.ingestUrl) throw new Error('the platform started no HTTP front door');
    return {
      url: platform.url.replace('localhost', '127.0.0.1'),
      ingestUrl: platform.ingestUrl,
      db: platform.db,
      services: platform.services,
      stop: async () => {
        for (const service of [...platform.services].reverse()) await service.stop();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp().catch(() => {});
    throw error;
  }
}
