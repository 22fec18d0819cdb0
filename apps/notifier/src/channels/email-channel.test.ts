import { createTestDb, type TestDb } from '@iot/db/testing';
import { mailText, startTestSmtp, type TestSmtp } from '@iot/delivery/testing/smtp';
import { createDbJobKeyStore, InProcessJobQueue, notifyActionJob } from '@iot/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NotifierService, startNotifier } from '../index';
import {
  createAction,
  createFixture,
  type Fixture,
  payloadFor,
  silentLog,
  testConfig,
  waitFor,
} from '../test-support/fixtures';

describe('email action', () => {
  let db: TestDb;
  let smtp: TestSmtp;
  let notifier: NotifierService;
  let fixture: Fixture;

  beforeAll(async () => {
    db = await createTestDb('pglite');
    smtp = await startTestSmtp({ rejectRecipient: (address) => address.startsWith('nobody@') });
    notifier = await startNotifier({
      config: testConfig({ SMTP_URL: smtp.url, MAIL_FROM: 'IoT <alarm@iot.test>' }),
      db,
      log: silentLog,
      queue: new InProcessJobQueue({ keys: createDbJobKeyStore(db) }),
      job: notifyActionJob({ timeoutMs: 5_000, retry: { attempts: 2, delayMs: 50 } }),
    });
    fixture = await createFixture(db, { deviceName: 'Cold store "B"', ruleName: 'Too hot' });
  });

  afterAll(async () => {
    await notifier?.stop();
    await notifier?.queue.close();
    await smtp?.close();
    await db?.drop();
  });

  it('sends to the recipients and cc list with every placeholder filled', async () => {
    const actionId = await createAction(db, fixture, {
      type: 'email',
      recipients: ['ops@example.test', 'night@example.test'],
      cc: ['boss@example.test'],
      subject: 'Alarm {rule}: {device}',
      body: '{device} reports {field} = {value} {unit} at {time}.',
    });
    const payload = payloadFor(fixture, actionId);
    await notifier.enqueue(payload);
    await waitFor(() => smtp.received.length === 1, 'the mail');
    const mail = smtp.received[0]!;
    expect(mail.from).toBe('alarm@iot.test');
    expect(mail.to.sort()).toEqual(['boss@example.test', 'night@example.test', 'ops@example.test']);
    const text = mailText(mail.data);
    expect(text).toMatch(/^To: ops@example\.test, night@example\.test$/m);
    expect(text).toMatch(/^Cc: boss@example\.test$/m);
    expect(text).toContain('Subject: Alarm Too hot: Cold store "B"');
    // 12:00 UTC on 1 July is 14:00 in Berlin (CEST); the unit comes from the field catalogue.
    expect(text).toContain('Cold store "B" reports Temperature = 31.5 °C at 2026-07-01 14:00:00 CEST.');
    const key = `${fixture.ruleId}:${payload.uplinkMessageId}:${actionId}`;
    await waitFor(async () => {
      const { rows } = await db.query('SELECT 1 FROM notification_log WHERE idempotency_key = $1', [key]);
      return rows.length === 1;
    }, 'the log row');
    const { rows } = await db.query<{
      channel: string;
      recipient: string;
      status: string;
      sent_at: Date | null;
    }>('SELECT channel, recipient, status, sent_at FROM notification_log WHERE idempotency_key = $1', [key]);
    expect(rows).toEqual([
      {
        channel: 'email',
        recipient: 'ops@example.test, night@example.test',
        status: 'sent',
        sent_at: expect.any(Date),
      },
    ]);
  });

  it('sends once for the same idempotency key, enqueued twice and again after the queue forgot it', async () => {
    const actionId = await createAction(db, fixture, {
      type: 'email',
      recipients: ['once@example.test'],
      subject: 'Once {value}',
      body: 'x',
    });
    const payload = payloadFor(fixture, actionId);
    const before = smtp.received.length;
    await notifier.enqueue(payload);
    await notifier.enqueue(payload);
    await waitFor(() => smtp.received.length === before + 1, 'one mail');
    // A fresh queue knows nothing of the first: only job_keys stops the repeat.
    const other = new InProcessJobQueue({ keys: createDbJobKeyStore(db) });
    const second = await startNotifier({
      config: testConfig({ SMTP_URL: smtp.url }),
      db,
      log: silentLog,
      queue: other,
    });
    try {
      await second.enqueue(payload);
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await second.stop();
      await other.close();
    }
    expect(smtp.received.filter((m) => m.to.includes('once@example.test'))).toHaveLength(1);
  });

  it('takes an SMTP 550 for the recipient as final: one attempt, logged failed, dead letter', async () => {
    const actionId = await createAction(db, fixture, { type: 'email', recipients: ['nobody@example.test'] });
    await notifier.enqueue(payloadFor(fixture, actionId));
    await waitFor(
      async () =>
        (await notifier.queue.deadLetters('notify.action')).some((d) =>
          d.idempotencyKey.endsWith(`:${actionId}`),
        ),
      'the dead letter',
    );
    const { rows } = await db.query<{ status: string; error: string }>(
      'SELECT status, error FROM notification_log WHERE rule_action_id = $1',
      [actionId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('failed');
    expect(rows[0]!.error).toMatch(/^SMTP 550: .*mailbox unavailable/);
  });

  it('refuses an invalid address without retrying and logs it failed', async () => {
    const actionId = await createAction(db, fixture, { type: 'email', recipients: ['not an address'] });
    const payload = payloadFor(fixture, actionId);
    await notifier.enqueue(payload);
    await waitFor(
      async () =>
        (await notifier.queue.deadLetters('notify.action')).some((d) =>
          d.idempotencyKey.endsWith(`:${actionId}`),
        ),
      'the dead letter',
    );
    const { rows } = await db.query<{ status: string; error: string }>(
      'SELECT status, error FROM notification_log WHERE rule_action_id = $1',
      [actionId],
    );
    expect(rows).toEqual([{ status: 'failed', error: 'invalid email recipient(s): not an address' }]);
  });
});

describe('email action without SMTP (embedded profile)', () => {
  it('keeps the mail in outbox_emails for the console and logs it queued', async () => {
    const db = await createTestDb('pglite');
    const queue = new InProcessJobQueue({ keys: createDbJobKeyStore(db) });
    const notifier = await startNotifier({ config: testConfig(), db, log: silentLog, queue });
    try {
      const fixture = await createFixture(db, { deviceName: 'Pump 3' });
      const actionId = await createAction(db, fixture, {
        type: 'email',
        recipients: ['ops@example.test'],
        cc: ['cc@example.test'],
        subject: '{device} alarm',
        body: '{field} {value}',
      });
      await notifier.enqueue(payloadFor(fixture, actionId));
      await waitFor(async () => {
        const { rows } = await db.query("SELECT 1 FROM notification_log WHERE status = 'queued'");
        return rows.length === 1;
      }, 'the log row');
      const { rows } = await db.query(
        'SELECT company_id, recipients, cc, subject, body, sent_at FROM outbox_emails',
      );
      expect(rows).toEqual([
        {
          company_id: fixture.companyId,
          recipients: ['ops@example.test'],
          cc: ['cc@example.test'],
          subject: 'Pump 3 alarm',
          body: 'Temperature 31.5',
          sent_at: null,
        },
      ]);
    } finally {
      await notifier.stop();
      await queue.close();
      await db.drop();
    }
  });
});
