/**
 * The simulator honours the platform's back-pressure: against ingest with a tiny in-process log and a
 * stalled storage writer it gets 503 + Retry-After, waits, sends the same uplink again, and once the writer
 * runs every accepted uplink is stored exactly once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { loadConfig } from '@iot/config';
import { type Db, migrate, openPglite } from '@iot/db';
import { createInProcessEventLog } from '@iot/event-log';
import { startIngest } from '@iot/ingest';
import { createLogger } from '@iot/runtime';
import { runSimulation } from '@iot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let db: Db;
beforeAll(async () => {
  db = await openPglite();
  await migrate(db);
}, 60_000);
afterAll(async () => {
  await db?.close();
});

/** The database with the storage writer's transactions held until `open()`. */
function stalledWriterDb(inner: Db) {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const gated: Db = {
    kind: inner.kind,
    query: (sql, params) => inner.query(sql, params),
    exec: (sql) => inner.exec(sql),
    transaction: async (fn) => {
      await gate;
      return inner.transaction(fn);
    },
    close: () => inner.close(),
  };
  return { db: gated, open };
}

describe('runSimulation and back-pressure', () => {
  it('waits out 503 Retry-After, resends the same uplink, and everything accepted is stored once', async () => {
    const { rows: c } = await db.query<{ id: number }>(
      "INSERT INTO companies (name) VALUES ('Sim') RETURNING id::int AS id",
    );
    const token = randomBytes(16).toString('hex');
    const { rows: d } = await db.query<{ id: number; uuid: string }>(
      `INSERT INTO devices (company_id, name, credentials_hash) VALUES ($1, 'Büro Klima', $2)
       RETURNING id::int AS id, uuid::text AS uuid`,
      [c[0]?.id, createHash('sha256').update(token).digest('hex')],
    );
    const device = d[0];
    if (!device) throw new Error('no device');

    const stalled = stalledWriterDb(db);
    const eventLog = createInProcessEventLog({ capacity: 4 });
    const ingest = await startIngest({
      config: loadConfig({ PORT: '0', MQTT_PORT: '0', HOST: '127.0.0.1' }),
      db: stalled.db,
      log: createLogger({ level: 'silent' }),
      eventLog,
      mqtt: false,
      http: { port: 0, host: '127.0.0.1' },
      storageWriter: { maxBatch: 2, maxWaitMs: 1 },
      publisher: { acceptTimeoutMs: 150, retryAfterSeconds: 1 },
    });
    try {
      const timer = setTimeout(stalled.open, 2500);
      const stats = await runSimulation({
        devices: 1,
        rate: 10,
        fleet: [{ ...device, name: 'Büro Klima', device_type: null, driver_id: null, token }],
        transport: 'http',
        ingestUrl: new URL(ingest.httpUrl ?? '').origin,
        durationSeconds: 5,
      });
      clearTimeout(timer);
      expect(stats.retryAfterWaits).toBeGreaterThanOrEqual(1);
      expect(stats.refused).toBe(0);
      // About 25 go through once the writer opens at 2.5 s on a free machine; on 2 cores shared with other
      // suites (load 10) 8 were seen. What matters is that sending goes on after the wait, and below.
      expect(stats.accepted).toBeGreaterThanOrEqual(5);
      expect(stats.accepted + stats.unsent).toBe(stats.sent);

      const until = Date.now() + 10_000;
      let stored = 0;
      while (Date.now() < until) {
        const { rows } = await db.query<{ n: number; ids: number }>(
          // The message id is kept as its hash (migration 0043).
          'SELECT count(*)::int AS n, count(DISTINCT message_hash)::int AS ids FROM device_data WHERE device_id = $1',
          [device.id],
        );
        stored = rows[0]?.n ?? 0;
        expect(rows[0]?.ids).toBe(stored); // no uplink stored twice, resends included
        if (stored >= stats.accepted) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      // Resends of an uplink whose first attempt timed out may be stored from the first attempt: at least
      // every accepted one, at most every one sent.
      expect(stored).toBeGreaterThanOrEqual(stats.accepted);
      expect(stored).toBeLessThanOrEqual(stats.sent);
    } finally {
      stalled.open();
      await ingest.stop();
      await eventLog.close();
    }
  }, 60_000);
});
