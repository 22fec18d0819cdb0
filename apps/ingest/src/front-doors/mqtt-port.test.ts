/**
 * `npm start` must work on a machine that already runs an MQTT broker on 1883 (these machines run
 * Mosquitto there): with MQTT_PORT unset the embedded broker moves to a free port; a configured port that
 * is taken stops the start with a message naming it.
 */
import { createServer, type Server } from 'node:net';
import { loadConfig } from '@iot/config';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { createInProcessEventLog } from '@iot/event-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngest } from '../index.js';
import { captureLogger } from '../test-support/test-ingest.js';

let db: TestDb;
let holder: Server | undefined;

/** Makes sure something listens on `port`: this machine's Mosquitto, or a placeholder server of ours. */
async function occupy(port: number): Promise<void> {
  const server = createServer();
  const free = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => resolve(true));
  });
  if (free) holder = server;
}

beforeAll(async () => {
  db = await createTestDb('pglite');
  await occupy(1883);
});
afterAll(async () => {
  holder?.close();
  await db?.drop();
});

async function startWithMqtt(env: Record<string, string>) {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', ...env });
  const { log, lines } = captureLogger();
  const eventLog = createInProcessEventLog({ capacity: 100 });
  const service = await startIngest({
    config,
    db,
    log,
    eventLog,
    mqtt: 'embedded',
    http: false,
    storageWriter: false,
  }).catch(async (error: unknown) => {
    await eventLog.close();
    throw error;
  });
  return { service, lines, eventLog };
}

describe('embedded MQTT broker port', () => {
  it('takes a free port and says so when MQTT_PORT is unset and 1883 is taken', async () => {
    const { service, lines, eventLog } = await startWithMqtt({});
    try {
      expect(service.mqttPort).toBeGreaterThan(0);
      expect(service.mqttPort).not.toBe(1883);
      expect(lines.some((l) => String(l.msg).includes('MQTT port 1883 is taken'))).toBe(true);
    } finally {
      await service.stop();
      await eventLog.close();
    }
  });

  it('refuses to start on a configured port that is taken, naming it', async () => {
    await expect(startWithMqtt({ MQTT_PORT: '1883' })).rejects.toThrow('MQTT_PORT 1883 is already in use');
  });
});
