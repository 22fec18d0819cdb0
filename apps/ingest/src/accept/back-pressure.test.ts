import type { Db } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { createInProcessEventLog } from '@iot/event-log';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, createDevice } from '../test-support/seed.js';
import { drained, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

const CAPACITY = 4;

/** The database with the storage writer's transactions held until `open()`: a stalled writer. */
function stalledWriterDb(db: Db) {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const gated: Db = {
    kind: db.kind,
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    transaction: async (fn) => {
      await gate;
      return db.transaction(fn);
    },
    close: () => db.close(),
  };
  return { db: gated, open };
}

forEachDb((suite) => {
  describe('back-pressure with a full in-process log', () => {
    let ingest: TestIngest | undefined;
    afterEach(async () => {
      await ingest?.stop();
      ingest = undefined;
    });

    it('answers HTTP 503 with Retry-After while the log is full, and loses nothing it accepted', async () => {
      const { db, open } = stalledWriterDb(suite.db);
      const eventLog = createInProcessEventLog({ capacity: CAPACITY });
      ingest = await startTestIngest(db, {
        eventLog,
        storageWriter: { maxBatch: 2, maxWaitMs: 1 },
        publisher: { acceptTimeoutMs: 150, retryAfterSeconds: 3 },
      });
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      const accepted: string[] = [];
      const refused: { status: number; retryAfter: string | null; code: number }[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await fetch(`${ingest.url}/uplinks/${device.uuid}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${device.token}` },
          body: JSON.stringify({ id: `u${i}`, click_count: i }),
        });
        const body = (await res.json()) as { code: number; payload?: { messageId: string } };
        if (res.status === 202) accepted.push(body.payload!.messageId);
        else
          refused.push({ status: res.status, retryAfter: res.headers.get('retry-after'), code: body.code });
        expect(await eventLog.depth('uplinks')).toBeLessThanOrEqual(CAPACITY);
      }
      expect(accepted.length).toBeGreaterThanOrEqual(CAPACITY);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]).toEqual({ status: 503, retryAfter: '3', code: 41 });

      open();
      await drained(ingest.service);
      const { rows } = await suite.db.query<{ message_id: string }>(
        `SELECT x.id AS message_id FROM device_data d
          JOIN unnest($2::text[]) AS x(id) ON d.message_hash = device_message_hash(x.id) WHERE d.device_id = $1`,
        [device.id, accepted],
      );
      const stored = new Set(rows.map((r) => r.message_id));
      for (const id of accepted) expect(stored.has(id)).toBe(true);
    });

    it('delays the MQTT PUBACK until the log accepts, then stores every uplink', async () => {
      const { db, open } = stalledWriterDb(suite.db);
      const eventLog = createInProcessEventLog({ capacity: CAPACITY });
      ingest = await startTestIngest(db, {
        eventLog,
        http: false,
        mqtt: 'embedded',
        mqttPort: 0,
        storageWriter: { maxBatch: 2, maxWaitMs: 1 },
      });
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${ingest.service.mqttPort}`, {
        username: device.uuid,
        password: device.token,
        reconnectPeriod: 0,
      });
      try {
        let acked = 0;
        const publishes = Array.from({ length: 10 }, (_, i) =>
          client
            .publishAsync(`devices/${device.uuid}/up`, JSON.stringify({ id: `q${i}`, click_count: i }), {
              qos: 1,
            })
            .then(() => {
              acked++;
            }),
        );
        await new Promise((resolve) => setTimeout(resolve, 400));
        // The writer holds one batch and the log holds CAPACITY records: the rest wait for their PUBACK.
        expect(acked).toBeLessThanOrEqual(CAPACITY + 2);
        expect(acked).toBeLessThan(10);
        expect(await eventLog.depth('uplinks')).toBeLessThanOrEqual(CAPACITY);

        open();
        await Promise.all(publishes);
        expect(acked).toBe(10);
        await drained(ingest.service);
        const { rows } = await suite.db.query<{ message_id: string }>(
          `SELECT coalesce(x.id, '#' || d.message_hash) AS message_id FROM device_data d
            LEFT JOIN unnest($2::text[]) AS x(id) ON d.message_hash = device_message_hash(x.id)
           WHERE d.device_id = $1 ORDER BY 1`,
          [device.id, Array.from({ length: 10 }, (_, i) => `q${i}`)],
        );
        expect(rows.map((r) => r.message_id)).toEqual(Array.from({ length: 10 }, (_, i) => `q${i}`).sort());
      } finally {
        await client.endAsync();
      }
    });
  });
});
