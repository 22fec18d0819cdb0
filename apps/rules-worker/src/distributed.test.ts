/**
 * Distributed profile: two rules workers, each with its own NATS JetStream connection (as two processes
 * would have), share the `rules-worker` consumer group on PostgreSQL. Both get partitions, and every
 * uplink is evaluated exactly once: one device log entry per rule and uplink, one job per firing.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '@iot/config';
import type { Queryable } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { createNatsEventLog, type NatsEventLog } from '@iot/event-log';
import { createDbJobKeyStore, InProcessJobQueue, NOTIFY_ACTION, NOTIFY_ACTION_POLICY } from '@iot/jobs';
import { createLogger } from '@iot/runtime';
import { expect, it } from 'vitest';
import { type RulesWorkerService, startRulesWorker } from './index.js';

const NATS_URL = 'nats://127.0.0.1:4222';
const config = loadConfig({ PORT: '0' });
const log = createLogger({ level: 'silent', name: 'rules-worker-distributed-test' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function insertId(db: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`${sql} RETURNING id`, params);
  return rows[0]!.id;
}

forEachDb(
  (suite) => {
    it('two workers split the partitions and evaluate every uplink once', async () => {
      const db = suite.db;
      const prefix = `rw_${randomBytes(4).toString('hex')}_`;
      // Subjects are `<topic>.<partition>` whatever the stream prefix: a topic of its own.
      const topic = `uplinks_${randomBytes(4).toString('hex')}`;
      const natsLog = () =>
        createNatsEventLog({ servers: NATS_URL, streamPrefix: prefix, partitions: 4, leaseMs: 3000 });
      const logs: NatsEventLog[] = [await natsLog(), await natsLog(), await natsLog()];
      const [producer, logA, logB] = logs as [NatsEventLog, NatsEventLog, NatsEventLog];
      const queue = new InProcessJobQueue({ keys: createDbJobKeyStore(db) });
      const processed: string[] = [];
      queue.process(
        NOTIFY_ACTION,
        async (_p, ctx) => void processed.push(ctx.idempotencyKey),
        NOTIFY_ACTION_POLICY,
      );
      const batches = { a: 0, b: 0 };
      const workers: RulesWorkerService[] = [];
      try {
        // The stream exists before the members join, so both start from its beginning.
        await producer.publish(topic, []);
        for (const [name, eventLog] of [
          ['a', logA],
          ['b', logB],
        ] as const)
          workers.push(
            await startRulesWorker({
              config,
              db,
              log,
              eventLog,
              queue,
              topic,
              timerIntervalMs: 0,
              recoverWindowMs: 0,
              maxBatch: 5,
              maxWaitMs: 5,
              afterCommit: () => {
                batches[name] += 1;
              },
            }),
          );
        const companyId = await insertId(db, 'INSERT INTO companies (name) VALUES ($1)', ['Distributed']);
        const devices: { deviceId: number; ruleId: number; actionId: number }[] = [];
        for (let i = 0; i < 12; i += 1) {
          const deviceId = await insertId(db, 'INSERT INTO devices (company_id, name) VALUES ($1, $2)', [
            companyId,
            `d${i}`,
          ]);
          const ruleId = await insertId(
            db,
            `INSERT INTO rules (company_id, device_id, name, data_field, operator, value)
             VALUES ($1, $2, 'warm', 'temperature', 'gte', 8)`,
            [companyId, deviceId],
          );
          const actionId = await insertId(
            db,
            `INSERT INTO rule_actions (company_id, rule_id, type, subject) VALUES ($1, $2, 'system', 's')`,
            [companyId, ruleId],
          );
          devices.push({ deviceId, ruleId, actionId });
        }
        // Both members hold partitions (leases in the KV bucket) before anything is published.
        const joined = Date.now() + 30_000;
        while (workers.some((w) => w.partitions().length === 0)) {
          if (Date.now() > joined) throw new Error('the members did not split the partitions');
          await sleep(100);
        }
        const t0 = Date.now() - 60 * 60_000;
        const values = [9, 9.5, 5, 10]; // fired, not_edge, (cleared), fired
        for (const [step, temperature] of values.entries())
          await producer.publish(
            topic,
            devices.map((d) => ({
              key: String(d.deviceId),
              value: {
                v: 1,
                kind: 'uplink',
                deviceId: d.deviceId,
                companyId,
                source: 'mqtt',
                receivedAt: new Date(t0 + step * 60_000).toISOString(),
                measuredAt: new Date(t0 + step * 60_000).toISOString(),
                messageId: `d${d.deviceId}-${step}`,
                data: { temperature },
              },
            })),
          );
        const until = Date.now() + 30_000;
        while ((await producer.lag(topic, 'rules-worker')) > 0 || processed.length < 24) {
          if (Date.now() > until) throw new Error(`not drained: ${processed.length} jobs`);
          await sleep(100);
        }
        await sleep(300);
        expect(batches.a).toBeGreaterThan(0);
        expect(batches.b).toBeGreaterThan(0);
        const expected = devices.flatMap((d) => [
          `${d.ruleId}:d${d.deviceId}-0:${d.actionId}`,
          `${d.ruleId}:d${d.deviceId}-3:${d.actionId}`,
        ]);
        expect([...processed].sort()).toEqual(expected.sort());
        const { rows } = await db.query<{ fired: number; suppressed: number; dupes: number }>(
          `SELECT count(*) FILTER (WHERE payload->>'kind' = 'rule_fired') AS fired,
                  count(*) FILTER (WHERE payload->>'kind' = 'rule_suppressed') AS suppressed,
                  (SELECT count(*) FROM (SELECT payload->>'messageId' FROM device_logs
                     WHERE company_id = $1 AND payload->>'kind' LIKE 'rule_%'
                     GROUP BY 1 HAVING count(*) > 1) x) AS dupes
             FROM device_logs WHERE company_id = $1`,
          [companyId],
        );
        expect(rows[0]).toEqual({ fired: 24, suppressed: 12, dupes: 0 });
      } finally {
        for (const w of workers) await w.stop();
        await queue.close();
        await producer.deleteTopic(topic);
        for (const l of logs) await l.close();
      }
    }, 60_000);
  },
  { kinds: ['postgres'] },
);
