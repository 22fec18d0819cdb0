import { randomBytes } from 'node:crypto';
import { forEachDb } from '@iot/db/testing';
import { createInProcessEventLog, type EventLog } from '@iot/event-log';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice } from '../test-support/seed.js';
import { eventually, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

/** A device's stored message ids among $2 (migration 0043 keeps their hashes; others show as '#hash'). */
const MESSAGE_IDS_SQL = `SELECT coalesce(x.id, '#' || d.message_hash) AS message_id FROM device_data d
  LEFT JOIN unnest($2::text[]) AS x(id) ON d.message_hash = device_message_hash(x.id) WHERE d.device_id = $1`;

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

/**
 * An in-process log whose publish calls wait until the test opens the gate; counts the records of calls
 * that are waiting, i.e. uplinks ingest holds without a PUBACK.
 */
function gatedLog() {
  const log = createInProcessEventLog();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const state = { waiting: 0, maxWaiting: 0, open };
  const eventLog: EventLog = {
    kind: log.kind,
    publish: async (topic, records) => {
      state.waiting += records.length;
      state.maxWaiting = Math.max(state.maxWaiting, state.waiting);
      await gate;
      await log.publish(topic, records);
      state.waiting -= records.length;
    },
    subscribe: (topic, group, handler, options) => log.subscribe(topic, group, handler, options),
    lag: (topic, group) => log.lag(topic, group),
    depth: (topic) => log.depth(topic),
    close: () => log.close(),
  };
  return { eventLog, state };
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
            const { rows } = await suite.db.query<{ message_id: string }>(MESSAGE_IDS_SQL, [
              device.id,
              Array.from({ length: 20 }, (_, i) => `m${i}`),
            ]);
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

forEachDb(
  (suite) => {
    describe('external broker: PUBACK window', () => {
      it('sends no PUBACK before the log accepted, and holds at most `window` uplinks per connection', async () => {
        const run = randomBytes(4).toString('hex');
        const { eventLog, state } = gatedLog();
        const ingest = await startTestIngest(suite.db, {
          eventLog,
          mqtt: 'external',
          http: false,
          env: { MQTT_URL: MOSQUITTO },
          mqttExternal: {
            shareGroup: `ingest-window-${run}`,
            connections: 1,
            window: 5,
            clientIdPrefix: `ingest-window-${run}`,
            cleanSession: true,
          },
        });
        const publisher = await mqtt.connectAsync(MOSQUITTO, {
          clientId: `dev-w-${run}`,
          reconnectPeriod: 0,
        });
        try {
          const company = await createCompany(suite.db);
          const device = await createDevice(suite.db, company);
          let acknowledged = 0;
          const publishes = Array.from({ length: 20 }, (_, i) =>
            publisher
              .publishAsync(`devices/${device.uuid}/up`, JSON.stringify({ id: `w${i}`, n: i }), { qos: 1 })
              .then(() => {
                acknowledged++;
              }),
          );
          // Ingest takes the first uplinks off the connection and hands them to the log, which waits.
          await eventually(async () => state.waiting >= 5, 5000);
          await new Promise((resolve) => setTimeout(resolve, 500));
          expect(state.waiting).toBe(5);
          // Mosquitto acknowledges the publisher itself; what counts is ingest's PUBACK to the broker,
          // seen here as nothing stored and nothing taken beyond the window.
          const { rows: none } = await suite.db.query('SELECT 1 FROM device_data WHERE device_id = $1', [
            device.id,
          ]);
          expect(none).toEqual([]);
          state.open();
          await Promise.all(publishes);
          expect(acknowledged).toBe(20);
          const rows = await eventually(async () => {
            const { rows } = await suite.db.query<{ message_id: string }>(MESSAGE_IDS_SQL, [
              device.id,
              Array.from({ length: 20 }, (_, i) => `w${i}`),
            ]);
            return rows.length === 20 ? rows : null;
          }, 10_000);
          expect(rows?.map((r) => r.message_id).sort()).toEqual(
            Array.from({ length: 20 }, (_, i) => `w${i}`).sort(),
          );
          expect(state.maxWaiting).toBeLessThanOrEqual(5);
        } finally {
          state.open();
          await publisher.endAsync();
          await ingest.stop();
          await eventLog.close();
        }
      });

      it('lets the broker redeliver uplinks held in the window when ingest dies before the log accepted', async () => {
        const run = randomBytes(4).toString('hex');
        const clientIdPrefix = `ingest-held-${run}`;
        const shareGroup = `ingest-held-${run}`;
        const gated = gatedLog();
        const options = {
          mqtt: 'external' as const,
          http: false as const,
          env: { MQTT_URL: MOSQUITTO },
          mqttExternal: { shareGroup, connections: 1, window: 50, clientIdPrefix, cleanSession: false },
        };
        const first = await startTestIngest(suite.db, { ...options, eventLog: gated.eventLog });
        const publisher = await mqtt.connectAsync(MOSQUITTO, {
          clientId: `dev-h-${run}`,
          reconnectPeriod: 0,
        });
        try {
          const company = await createCompany(suite.db);
          const device = await createDevice(suite.db, company);
          for (let i = 0; i < 10; i++)
            await publisher.publishAsync(`devices/${device.uuid}/up`, JSON.stringify({ id: `h${i}`, n: i }), {
              qos: 1,
            });
          await eventually(async () => gated.state.waiting >= 10, 5000);
          // The process "dies": its connection goes without a PUBACK for any of the ten.
          await first.stop();
          const second = await startTestIngest(suite.db, options);
          try {
            const rows = await eventually(async () => {
              const { rows } = await suite.db.query<{ message_id: string }>(MESSAGE_IDS_SQL, [
                device.id,
                Array.from({ length: 10 }, (_, i) => `h${i}`),
              ]);
              return rows.length === 10 ? rows : null;
            }, 10_000);
            expect(rows?.map((r) => r.message_id).sort()).toEqual(
              Array.from({ length: 10 }, (_, i) => `h${i}`).sort(),
            );
          } finally {
            await second.stop();
          }
        } finally {
          gated.state.open();
          await publisher.endAsync();
          await gated.eventLog.close();
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
