import { createTestDb, type TestDb } from '@iot/db/testing';
import { startTestSmtp, type TestSmtp } from '@iot/delivery/testing/smtp';
import { createDbJobKeyStore, InProcessJobQueue, notifyActionJob } from '@iot/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFY_CHANNEL_LIMITS, type NotifierService, startNotifier } from '../index';
import {
  createAction,
  createFixture,
  type Fixture,
  payloadFor,
  silentLog,
  testConfig,
  waitFor,
} from '../test-support/fixtures';

// A burst of jobs through the whole notifier: pooled SMTP, coalesced bookkeeping, channel limits.
describe('notifier under a burst of alarms', () => {
  let db: TestDb;
  let smtp: TestSmtp;
  let queue: InProcessJobQueue;
  let notifier: NotifierService;
  let fixture: Fixture;

  beforeAll(async () => {
    db = await createTestDb('pglite');
    smtp = await startTestSmtp();
    queue = new InProcessJobQueue({ keys: createDbJobKeyStore(db) });
    notifier = await startNotifier({
      config: testConfig({ SMTP_URL: smtp.url, MAIL_FROM: 'IoT <alarm@iot.test>' }),
      db,
      log: silentLog,
      queue,
      job: notifyActionJob({ timeoutMs: 5_000, retry: { attempts: 2, delayMs: 50 } }),
      // System messages at 10/s with bursts of 2: the limit is what the second test is about.
      channelLimits: { ...NOTIFY_CHANNEL_LIMITS, system: { perSecond: 10, burst: 2 } },
    });
    fixture = await createFixture(db);
  });

  afterAll(async () => {
    await notifier?.stop();
    await queue?.close();
    await smtp?.close();
    await db?.drop();
  });

  it('sends 60 mails at once over a few pooled connections, each key once, however often it is handed over', async () => {
    const actionId = await createAction(db, fixture, {
      type: 'email',
      recipients: ['ops@example.test'],
      subject: 'storm {value}',
    });
    const payloads = Array.from({ length: 60 }, (_, i) => payloadFor(fixture, actionId, { value: i }));
    // Every job handed over three times while the first copies run, as a redelivered batch would.
    for (let round = 0; round < 3; round++) await Promise.all(payloads.map((p) => notifier.enqueue(p)));
    await waitFor(() => smtp.received.length >= 60, '60 mails');
    const keys = payloads.map((p) => `${p.ruleId}:${p.uplinkMessageId}:${p.actionId}`);
    await waitFor(async () => {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM job_keys WHERE key = ANY($1) AND completed_at IS NOT NULL',
        [keys],
      );
      return rows[0]?.n === 60;
    }, 'the 60 keys done');

    // A second queue (a restarted process: the first queue's memory is gone) gets them all again:
    // job_keys says done, nothing is sent.
    const again = new InProcessJobQueue({ keys: createDbJobKeyStore(db) });
    const runs: string[] = [];
    try {
      const job = notifyActionJob();
      again.process(
        job,
        async (payload) => {
          runs.push(payload.uplinkMessageId);
        },
        { concurrency: 8, keepCompletedMs: 60_000, keepFailedMs: 60_000, keepMaxJobs: 1_000 },
      );
      await Promise.all(payloads.map((p) => again.enqueue(job, p)));
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await again.close();
    }
    expect(runs).toEqual([]);

    const subjects = smtp.received.map((m) => /^Subject: (.*)$/m.exec(m.data)?.[1]);
    expect(subjects.sort()).toEqual(payloads.map((_, i) => `storm ${i}`).sort());
    // Pooled: connections are reused, not one per mail (SMTP_POOL_CONNECTIONS at most).
    expect(smtp.connections).toBeLessThanOrEqual(32);
    const { rows } = await db.query<{ status: string; n: number; first: boolean }>(
      `SELECT status, count(*)::int AS n, bool_and((details->>'attempt')::int = 1) AS first
         FROM notification_log WHERE idempotency_key = ANY($1) GROUP BY status`,
      [keys],
    );
    expect(rows).toEqual([{ status: 'sent', n: 60, first: true }]);
    const outbox = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox_emails WHERE subject LIKE 'storm %' AND sent_at IS NOT NULL`,
    );
    expect(outbox.rows[0]?.n).toBe(60);
  });

  it('spreads jobs over a used-up channel limit in time, without using attempts or dead-lettering', async () => {
    const actionId = await createAction(db, fixture, { type: 'system', subject: 'limited {value}' });
    const payloads = Array.from({ length: 6 }, (_, i) => payloadFor(fixture, actionId, { value: i }));
    const started = Date.now();
    await Promise.all(payloads.map((p) => notifier.enqueue(p)));
    const keys = payloads.map((p) => `${p.ruleId}:${p.uplinkMessageId}:${p.actionId}`);
    await waitFor(async () => {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM job_keys WHERE key = ANY($1) AND completed_at IS NOT NULL',
        [keys],
      );
      return rows[0]?.n === 6;
    }, 'six jobs done');
    const messages = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE company_id = $1 AND subject LIKE 'limited %'`,
      [fixture.companyId],
    );
    expect(messages.rows[0]?.n).toBe(6);
    // A burst of 2, then 10/s: the last of the other four waits about 400 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const { rows } = await db.query<{ attempt: number }>(
      `SELECT (details->>'attempt')::int AS attempt FROM notification_log
        WHERE idempotency_key = ANY($1) AND status = 'sent'`,
      [keys],
    );
    expect(rows.map((r) => r.attempt)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await queue.deadLetters('notify.action')).toEqual([]);
  });
});
