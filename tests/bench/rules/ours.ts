/** Ours embedded: the whole platform in this process, with stages traced inside ingest. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@iot/config';
import type { IngestService } from '@iot/ingest';
import { startPlatform } from '@iot/platform';
import type { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { createBenchFleet, stageReaders } from './fleet.js';
import { startMailSink } from './mail-sink.js';
import { pgliteThread } from './phases.js';
import { DEVICES, log, oursSmtpUrl, WINDOW_OURS } from './settings.js';
import { countPubacks, type Side } from './side.js';
import { traced, traceStage } from './stages.js';

export async function ourSide(): Promise<Side> {
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
    SMTP_URL: oursSmtpUrl(mail.port),
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
