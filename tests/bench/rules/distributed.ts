/** Ours in the distributed profile, composed in this process as `PROFILE=distributed npm start` does. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@iot/config';
import { createTestDb } from '@iot/db/testing';
import { createNatsEventLog } from '@iot/event-log';
import { deleteRedisPrefix } from '@iot/jobs';
import { startPlatform } from '@iot/platform';
import { startOwnMosquitto } from '../lib/mosquitto.js';
import { bullmqStages, connectDevicePublishers, createBenchFleet, stageReaders } from './fleet.js';
import { startMailSink } from './mail-sink.js';
import { DEVICES, log, oursSmtpUrl, WINDOW_OURS } from './settings.js';
import { countPubacks, evaluatedInProcess, type Side } from './side.js';

/**
 * Ours in the distributed profile, composed as `PROFILE=distributed npm start` does (startPlatform) in
 * this process: a fresh PostgreSQL database (a connection pool: queries do not block this thread),
 * the machine's NATS JetStream as event log (a stream prefix and topic of its own), BullMQ on the
 * machine's Redis (a key prefix of its own), ingest in a share group of its own on the machine's
 * Mosquitto, where the devices publish (anonymous, like Node-RED's publishers; the broker is where
 * devices are authenticated in this profile). A PUBACK here comes from Mosquitto, not from our event
 * log, so "evaluated" is the rules worker's evaluation counter (evaluatedInProcess).
 */
export async function distributedSide(): Promise<Side> {
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
      SMTP_URL: oursSmtpUrl(mail.port),
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
    evaluated: evaluatedInProcess,
    window: WINDOW_OURS,
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
