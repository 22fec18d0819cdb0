import { randomBytes } from 'node:crypto';
import { forEachDb } from '@iot/db/testing';
import { createInProcessEventLog, type EventLog } from '@iot/event-log';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice } from '../test-support/seed.js';
import { eventually, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

/** An in-process log whose first `failures` publish calls fail, like a log that is briefly down. */
function flakyLog(failures: number): EventLog {
  const log = createInProcessEventLog();
  let left = failures;
  return {
    kind: log.kind,
    publish: (topic, records) =>
      left-- > 0 ? Promise.reject(new Error('log unavailable')) : log.publish(topic, records),
    subscribe: (topic, group, handler, options) => log.subscribe(topic, group, handler, options),
    lag: (topic, group) => log.lag(topic, group),
    depth: (topic) => log.depth(topic),
    close: () => log.close(),
  };
}

// The machine's Mosquitto (anonymous allowed): the distributed profile's path with a shared subscription.
const MOSQUITTO = 'mqtt://127.0.0.1:1883';

forEachDb(
  (suite) => {
    describe('external broker (Mosquitto), shared subscription', () => {
      let ingest: TestIngest;
      const run = randomBytes(4).toString('hex');
      beforeAll(async () => {
        ingest = await startTestIngest(suite.db, {
          mqtt: 'external',
          http: false,
          env: { MQTT_URL: MOSQUITTO },
          mqttExternal: {
            shareGroup: `ingest-test-${run}`,
            connections: 2,
            clientIdPrefix: `ingest-test-${run}`,
            cleanSession: true,
          },
        });
      });
      afterAll(async () => ingest.stop());

      it('stores uplinks published to devices/<uuid>/up and drops those of unknown devices', async () => {
        const company = await createCompany(suite.db);
        const device = await createDevice(suite.db, company);
        const unknown = crypto.randomUUID();
        const publisher = await mqtt.connectAsync(MOSQUITTO, { clientId: `dev-${run}`, reconnectPeriod: 0 });
        try {
          for (let i = 0; i < 20; i++)
            await publisher.publishAsync(
              `devices/${device.uuid}/up`,
              JSON.stringify({ id: `m${i}`, click_count: i }),
              { qos: 1 },
            );
          await publisher.publishAsync(`devices/${unknown}/up`, JSON.stringify({ temperature: 1 }), {
            qos: 1,
          });
          const rows = await eventually(async () => {
            const { rows } = await suite.db.query<{ message_id: string }>(
              'SELECT message_id FROM device_data WHERE device_id = $1',
              [device.id],
            );
            return rows.length === 20 ? rows : null;
          });
          expect(rows?.map((r) => r.message_id).sort()).toEqual(
            Array.from({ length: 20 }, (_, i) => `m${i}`).sort(),
          );
          const dropped = await eventually(async () =>
            ingest.lines.find((l) => l.msg === 'mqtt uplink dropped' && l.topic === `devices/${unknown}/up`),
          );
          expect(dropped).toMatchObject({ reason: 'unknown_device' });
        } finally {
          await publisher.endAsync();
        }
      });
    });
  },
  { kinds: ['postgres'] },
);

forEachDb(
  (suite) => {
    describe('external broker: an uplink the log did not accept', () => {
      it('is not acknowledged, and comes again after the reconnect (persistent session)', async () => {
        const run = randomBytes(4).toString('hex');
        const clientIdPrefix = `ingest-redeliver-${run}`;
        const eventLog = flakyLog(1);
        const ingest = await startTestIngest(suite.db, {
          eventLog,
          mqtt: 'external',
          http: false,
          env: { MQTT_URL: MOSQUITTO },
          mqttExternal: {
            shareGroup: `ingest-redeliver-${run}`,
            connections: 1,
            clientIdPrefix,
            cleanSession: false,
          },
        });
        const publisher = await mqtt.connectAsync(MOSQUITTO, {
          clientId: `dev-r-${run}`,
          reconnectPeriod: 0,
        });
        try {
          const company = await createCompany(suite.db);
          const device = await createDevice(suite.db, company);
          await publisher.publishAsync(
            `devices/${device.uuid}/up`,
            JSON.stringify({ id: 'once', temperature: 4 }),
            { qos: 1 },
          );
          const rows = await eventually(async () => {
            const { rows } = await suite.db.query('SELECT data FROM device_data WHERE device_id = $1', [
              device.id,
            ]);
            return rows.length > 0 ? rows : null;
          }, 10_000);
          expect(rows).toEqual([{ data: { temperature: 4 } }]);
          expect(
            ingest.lines.some((l) => l.msg === 'mqtt uplink not accepted, reconnecting for redelivery'),
          ).toBe(true);
        } finally {
          await publisher.endAsync();
          await ingest.stop();
          await eventLog.close();
          // Leave no persistent session behind on the shared broker.
          const cleaner = await mqtt.connectAsync(MOSQUITTO, {
            clientId: `${clientIdPrefix}-0`,
            clean: true,
            reconnectPeriod: 0,
          });
          await cleaner.endAsync();
        }
      });
    });
  },
  { kinds: ['pglite'] },
);
