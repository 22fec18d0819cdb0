import { randomBytes } from 'node:crypto';
import { forEachDb } from '@iot/db/testing';
import { createNatsEventLog, type NatsEventLog } from '@iot/event-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice, createIntegrationToken, randomDevEui } from '../test-support/seed.js';
import { drained, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

// The distributed profile's log: the machine's NATS JetStream, on a topic of this run only.
const NATS_URL = 'nats://127.0.0.1:4222';

forEachDb(
  (suite) => {
    describe('end to end through NATS JetStream', () => {
      const topic = `uplinks_test_${randomBytes(4).toString('hex')}`;
      let eventLog: NatsEventLog;
      let ingest: TestIngest;
      beforeAll(async () => {
        eventLog = await createNatsEventLog({ servers: NATS_URL, partitions: 4, leaseMs: 3000 });
        ingest = await startTestIngest(suite.db, { eventLog, publisher: { topic } });
      });
      afterAll(async () => {
        await ingest.stop();
        await eventLog.deleteTopic(topic);
        await eventLog.close();
      });

      it('stores HTTP and ChirpStack uplinks published to JetStream, a redelivered one once', async () => {
        const company = await createCompany(suite.db);
        const device = await createDevice(suite.db, company, { devEui: randomDevEui() });
        const token = await createIntegrationToken(suite.db, company, 'chirpstack');
        for (let i = 0; i < 5; i++) {
          const res = await fetch(`${ingest.url}/uplinks/${device.uuid}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${device.token}` },
            body: JSON.stringify({ id: `n${i}`, time: `2026-03-01T10:0${i}:00Z`, temperature: 10 + i }),
          });
          expect(res.status).toBe(202);
        }
        const up = JSON.stringify({
          deduplicationId: crypto.randomUUID(),
          time: '2026-03-01T11:00:00Z',
          deviceInfo: { devEui: device.devEui },
          object: { temperature: 30 },
        });
        for (let i = 0; i < 2; i++) {
          const res = await fetch(`${ingest.url}/chirpstack?event=up`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: up,
          });
          expect(res.status).toBe(202);
        }
        await drained(ingest.service, 15_000);
        const { rows } = await suite.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM device_data WHERE device_id = $1',
          [device.id],
        );
        expect(rows[0]!.n).toBe(6);
        const current = await suite.db.query('SELECT data FROM device_current WHERE device_id = $1', [
          device.id,
        ]);
        expect(current.rows[0]).toEqual({ data: { temperature: 30 } });
      });
    });
  },
  { kinds: ['postgres'] },
);
