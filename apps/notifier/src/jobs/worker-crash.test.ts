import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { startTestSmtp, type TestSmtp } from '@iot/delivery/testing/smtp';
import { BullmqJobQueue, deleteRedisPrefix, notifyActionJob } from '@iot/jobs';
import { afterAll, describe, expect, it } from 'vitest';
import { createAction, createFixture, payloadFor, waitFor } from '../test-support/fixtures';

const REDIS_URL = 'redis://127.0.0.1:6379';
const CHILD = fileURLToPath(new URL('../test-support/bullmq-worker-child.ts', import.meta.url));

function startWorker(args: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

describe('a BullMQ worker killed (SIGKILL) in the middle of a batch', () => {
  const prefix = `test-notifier-${randomBytes(6).toString('hex')}`;
  const children: ChildProcess[] = [];
  let db: TestDb | undefined;
  let smtp: TestSmtp | undefined;

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await smtp?.close();
    await deleteRedisPrefix(REDIS_URL, prefix);
    await db?.drop();
  });

  it('loses no notification and sends none twice', async () => {
    db = await createTestDb('postgres');
    // The server holds its answer: the worker is killed while every mail of the batch is mid-send.
    smtp = await startTestSmtp({ answerDelayMs: 30_000 });
    const args = { databaseUrl: db.url!, redisUrl: REDIS_URL, prefix, smtpUrl: smtp.url };
    const first = await startWorker(args);
    children.push(first);

    const fixture = await createFixture(db);
    const recipients = ['a@example.test', 'b@example.test', 'c@example.test'];
    const producer = new BullmqJobQueue({ url: REDIS_URL, prefix });
    const job = notifyActionJob({
      timeoutMs: 3_000,
      retry: { attempts: 10, delayMs: 300, maxDelayMs: 1_500 },
    });
    try {
      for (const to of recipients) {
        const actionId = await createAction(db, fixture, {
          type: 'email',
          recipients: [to],
          subject: `to ${to}`,
        });
        await producer.enqueue(job, payloadFor(fixture, actionId));
      }
    } finally {
      await producer.close();
    }
    const server = smtp;
    await waitFor(() => server.dataArrived === 3, 'three mails in flight');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(smtp.received).toHaveLength(0);

    server.answerDelayMs = 0;
    children.push(await startWorker(args));
    await waitFor(() => server.received.length === 3, 'three mails after the restart', 30_000);
    // Long enough for any duplicate to arrive: lease, stalled checks and retries are all shorter.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(recipients);
    const { rows } = await db.query<{ recipient: string; sent: string }>(
      `SELECT recipient, count(*) FILTER (WHERE status = 'sent')::text AS sent FROM notification_log
       WHERE company_id = $1 GROUP BY recipient ORDER BY recipient`,
      [fixture.companyId],
    );
    expect(rows).toEqual(recipients.map((recipient) => ({ recipient, sent: '1' })));
  }, 60_000);

  it('loses none and sends none twice when the process that claimed its jobs itself dies mid-send', async () => {
    // The one-process platform: the rules worker's transaction claimed the keys and the first attempts
    // run in its process (BullMQ holds each job only as a delayed back-up, due after the lease).
    const crashDb = await createTestDb('postgres');
    const crashSmtp = await startTestSmtp({ answerDelayMs: 30_000 });
    const crashPrefix = `${prefix}-claimed`;
    try {
      const fixture = await createFixture(crashDb);
      const recipients = ['d@example.test', 'e@example.test', 'f@example.test'];
      const produce = [];
      for (const to of recipients) {
        const actionId = await createAction(crashDb, fixture, {
          type: 'email',
          recipients: [to],
          subject: `to ${to}`,
        });
        produce.push(payloadFor(fixture, actionId));
      }
      const args = {
        databaseUrl: crashDb.url!,
        redisUrl: REDIS_URL,
        prefix: crashPrefix,
        smtpUrl: crashSmtp.url,
      };
      const first = await startWorker({ ...args, produce } as unknown as Record<string, string>);
      children.push(first);
      await waitFor(() => crashSmtp.dataArrived === 3, 'three mails in flight');
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));
      expect(crashSmtp.received).toHaveLength(0);

      crashSmtp.answerDelayMs = 0;
      children.push(await startWorker(args));
      // The back-ups are due 7 s after the enqueue (lease 2 x 3 s + 1 s); their claims take the dead
      // process's over (lease passed) and send what it never got an answer for.
      await waitFor(() => crashSmtp.received.length === 3, 'three mails after the restart', 30_000);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(crashSmtp.received.map((m) => m.to[0]).sort()).toEqual(recipients);
      const { rows } = await crashDb.query<{ recipient: string; sent: string }>(
        `SELECT recipient, count(*) FILTER (WHERE status = 'sent')::text AS sent FROM notification_log
         WHERE company_id = $1 GROUP BY recipient ORDER BY recipient`,
        [fixture.companyId],
      );
      expect(rows).toEqual(recipients.map((recipient) => ({ recipient, sent: '1' })));
    } finally {
      await crashSmtp.close();
      await deleteRedisPrefix(REDIS_URL, crashPrefix);
      await crashDb.drop();
    }
  }, 90_000);
});
