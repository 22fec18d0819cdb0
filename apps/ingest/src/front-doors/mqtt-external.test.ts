import { randomBytes } from 'node:crypto';
import { forEachDb } from '@iot/db/testing';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice } from '../test-support/seed.js';
import { eventually, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

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
