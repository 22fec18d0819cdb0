import { createTestDb, type TestDb } from '@iot/db/testing';
import { startTwilioStandIn } from '@iot/delivery/testing/twilio';
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

const SID = 'AC00000000000000000000000000000001';
const TOKEN = 'test-token';

/**
 * The Twilio stand-in, with two provider answers of its own: a hiccup (503) on the first try of a message
 * to one number, and Twilio's error 21211 for a number it cannot reach.
 */
function startFakeTwilio() {
  const failedOnce = new Set<string>();
  return startTwilioStandIn({
    refuse: ({ form }) => {
      if (form.To === '+4915100000503' && !failedOnce.has(form.Body ?? '')) {
        failedOnce.add(form.Body ?? '');
        return { status: 503, code: 20503, message: 'Service unavailable' };
      }
      if (form.To === '+4915199999999')
        return { status: 400, code: 21211, message: "Invalid 'To' Phone Number" };
      return undefined;
    },
  });
}

describe('SMS and voice actions through the real twilio library', () => {
  let db: TestDb;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  let notifier: NotifierService;
  let fixture: Fixture;

  beforeAll(async () => {
    db = await createTestDb('pglite');
    twilio = await startFakeTwilio();
    notifier = await startNotifier({
      config: testConfig({
        TWILIO_ACCOUNT_SID: SID,
        TWILIO_AUTH_TOKEN: TOKEN,
        TWILIO_FROM: '+4930123456',
        TWILIO_BASE_URL: twilio.url,
      }),
      db,
      log: silentLog,
      queue: new InProcessJobQueue({ keys: createDbJobKeyStore(db) }),
      job: notifyActionJob({ timeoutMs: 5_000, retry: { attempts: 2, delayMs: 50 } }),
    });
    fixture = await createFixture(db, { deviceName: 'Well 2', ruleName: 'Level low' });
  });

  afterAll(async () => {
    await notifier?.stop();
    await notifier?.queue.close();
    await twilio?.close();
    await db?.drop();
  });

  it('sends one SMS per number (national numbers read as German) to Messages.json', async () => {
    const actionId = await createAction(db, fixture, {
      type: 'sms',
      recipients: ['+4915123456789', '0170 1234567'],
      body: '{device}: {field} {value}{unit} at {time}',
    });
    const before = twilio.requests.length;
    await notifier.enqueue(payloadFor(fixture, actionId));
    await waitFor(() => twilio.requests.length === before + 2, 'two SMS');
    const sms = twilio.requests.slice(before);
    expect(sms.map((r) => r.path)).toEqual([
      `/2010-04-01/Accounts/${SID}/Messages.json`,
      `/2010-04-01/Accounts/${SID}/Messages.json`,
    ]);
    expect(sms[0]!.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(sms.map((r) => r.form)).toEqual([
      {
        To: '+4915123456789',
        From: '+4930123456',
        Body: 'Well 2: Temperature 31.5°C at 2026-07-01 14:00:00 CEST',
      },
      {
        To: '+491701234567',
        From: '+4930123456',
        Body: 'Well 2: Temperature 31.5°C at 2026-07-01 14:00:00 CEST',
      },
    ]);
    await waitFor(async () => {
      const { rows } = await db.query(
        "SELECT 1 FROM notification_log WHERE rule_action_id = $1 AND status = 'sent'",
        [actionId],
      );
      return rows.length === 2;
    }, 'two log rows');
    const outbox = await db.query<{ recipient: string; reference: string; sent_at: Date | null }>(
      `SELECT recipient, reference, sent_at FROM outbox_phone_messages
        WHERE idempotency_key IN (SELECT idempotency_key FROM notification_log WHERE rule_action_id = $1)
        ORDER BY id`,
      [actionId],
    );
    expect(outbox.rows).toEqual([
      {
        recipient: '+4915123456789',
        reference: expect.stringMatching(/^SM\d{32}$/),
        sent_at: expect.any(Date),
      },
      {
        recipient: '+491701234567',
        reference: expect.stringMatching(/^SM\d{32}$/),
        sent_at: expect.any(Date),
      },
    ]);
  });

  it('places a call to Calls.json whose TwiML speaks the message in the chosen language', async () => {
    const actionId = await createAction(db, fixture, {
      type: 'voice_message',
      recipients: ['+4915123456789'],
      body: 'Achtung: {device} meldet {value} Grad',
      voiceLanguage: 'de-DE',
    });
    const before = twilio.requests.length;
    await notifier.enqueue(payloadFor(fixture, actionId));
    await waitFor(() => twilio.requests.length === before + 1, 'the call');
    const call = twilio.requests[before]!;
    expect(call.path).toBe(`/2010-04-01/Accounts/${SID}/Calls.json`);
    expect(call.form.To).toBe('+4915123456789');
    expect(call.form.From).toBe('+4930123456');
    expect(call.form.Twiml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say language="de-DE">Achtung: Well 2 meldet 31,5 Grad</Say></Response>',
    );
  });

  it('sends no SMS for a company without paid messaging, nor for a blocked one: refused, not sent (issue #27)', async () => {
    const unlicensed = await createFixture(db, { modules: [] });
    const blocked = await createFixture(db);
    await db.query('UPDATE companies SET blocked = true WHERE id = $1', [blocked.companyId]);
    const before = twilio.requests.length;
    const refusedIds: number[] = [];
    for (const f of [unlicensed, blocked]) {
      const actionId = await createAction(db, f, { type: 'sms', recipients: ['+4915123456789'], body: 'x' });
      refusedIds.push(actionId);
      await notifier.enqueue(payloadFor(f, actionId));
    }
    await waitFor(
      async () =>
        (await notifier.queue.deadLetters('notify.action')).filter((d) =>
          refusedIds.some((id) => d.idempotencyKey.endsWith(`:${id}`)),
        ).length === 2,
      'both refused',
    );
    expect(twilio.requests.length).toBe(before);
  });

  it('retries only the number that failed: the other is not texted twice', async () => {
    const actionId = await createAction(db, fixture, {
      type: 'sms',
      recipients: ['+4915123456789', '+4915100000503'],
      body: 'partial {value}',
    });
    const payload = payloadFor(fixture, actionId);
    const before = twilio.requests.length;
    await notifier.enqueue(payload);
    await waitFor(async () => {
      const { rows } = await db.query(
        "SELECT 1 FROM notification_log WHERE rule_action_id = $1 AND status = 'sent'",
        [actionId],
      );
      return rows.length === 2;
    }, 'both numbers reached');
    expect(twilio.requests.slice(before).map((r) => r.form.To)).toEqual([
      '+4915123456789',
      '+4915100000503',
      '+4915100000503',
    ]);
    const { rows } = await db.query<{ recipient: string; status: string; details: { attempt: number } }>(
      'SELECT recipient, status, details FROM notification_log WHERE rule_action_id = $1 ORDER BY id',
      [actionId],
    );
    expect(rows.map((r) => [r.recipient, r.status, r.details.attempt])).toEqual([
      ['+4915123456789', 'sent', 1],
      ['+4915100000503', 'failed', 1],
      ['+4915100000503', 'sent', 2],
    ]);
  });

  it('takes a Twilio 400 as final: one request, logged failed with Twilio’s message', async () => {
    const actionId = await createAction(db, fixture, {
      type: 'sms',
      recipients: ['+4915199999999'],
      body: 'x',
    });
    const before = twilio.requests.length;
    await notifier.enqueue(payloadFor(fixture, actionId));
    await waitFor(
      async () =>
        (await notifier.queue.deadLetters('notify.action')).some((d) =>
          d.idempotencyKey.endsWith(`:${actionId}`),
        ),
      'the dead letter',
    );
    expect(twilio.requests.length).toBe(before + 1);
    const { rows } = await db.query('SELECT status, error FROM notification_log WHERE rule_action_id = $1', [
      actionId,
    ]);
    expect(rows).toEqual([{ status: 'failed', error: "Twilio answered 400: Invalid 'To' Phone Number" }]);
  });

  it.each([
    ['an invalid phone number', { recipients: ['12'], voiceLanguage: 'de-DE' }, 'invalid phone number "12"'],
    [
      'an invalid voice language',
      { recipients: ['+4915123456789'], voiceLanguage: 'german' },
      'invalid voice language "german"',
    ],
  ])('refuses %s without calling Twilio', async (_name, action, error) => {
    const actionId = await createAction(db, fixture, { type: 'voice_message', body: 'x', ...action });
    const before = twilio.requests.length;
    await notifier.enqueue(payloadFor(fixture, actionId));
    await waitFor(async () => {
      const { rows } = await db.query('SELECT 1 FROM notification_log WHERE rule_action_id = $1', [actionId]);
      return rows.length === 1;
    }, 'the log row');
    const { rows } = await db.query('SELECT status, error FROM notification_log WHERE rule_action_id = $1', [
      actionId,
    ]);
    expect(rows).toEqual([{ status: 'failed', error }]);
    expect(twilio.requests.length).toBe(before);
  });
});

describe('SMS and calls without a Twilio account', () => {
  it('keeps them in the phone outbox, logged as queued, once, with no retry and no dead letter', async () => {
    const db = await createTestDb('pglite');
    const queue = new InProcessJobQueue({ keys: createDbJobKeyStore(db) });
    const notifier = await startNotifier({
      config: testConfig(),
      db,
      log: silentLog,
      queue,
      job: notifyActionJob({ timeoutMs: 5_000, retry: { attempts: 2, delayMs: 50 } }),
    });
    try {
      const fixture = await createFixture(db, { deviceName: 'Well 2', ruleName: 'Level low' });
      const sms = await createAction(db, fixture, {
        type: 'sms',
        recipients: ['+4915123456789', '0170 1234567'],
        body: '{device}: {value}{unit}',
      });
      const call = await createAction(db, fixture, {
        type: 'voice_message',
        recipients: ['+4915123456789'],
        body: 'Achtung: {device}',
        voiceLanguage: 'de-DE',
      });
      const smsPayload = payloadFor(fixture, sms);
      const smsJob = await notifier.enqueue(smsPayload);
      await notifier.enqueue(payloadFor(fixture, call));
      // The same job again (a redelivery): its key is settled, nothing is added. The two jobs run side by side.
      await notifier.enqueue(smsPayload);
      await waitFor(async () => {
        const { rows } = await db.query('SELECT 1 FROM notification_log', []);
        return rows.length === 3;
      }, 'three log rows');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const log = await db.query<{
        channel: string;
        recipient: string;
        status: string;
        error: string | null;
      }>('SELECT channel, recipient, status, error FROM notification_log ORDER BY channel, id');
      expect(log.rows).toEqual([
        { channel: 'sms', recipient: '+4915123456789', status: 'queued', error: null },
        { channel: 'sms', recipient: '0170 1234567', status: 'queued', error: null },
        { channel: 'voice_message', recipient: '+4915123456789', status: 'queued', error: null },
      ]);
      const outbox = await db.query(
        `SELECT company_id, channel, recipient, body, voice_language, device_id, rule_id, idempotency_key,
                reference, sent_at, error
           FROM outbox_phone_messages ORDER BY channel, id`,
      );
      const common = {
        company_id: fixture.companyId,
        device_id: fixture.deviceId,
        rule_id: fixture.ruleId,
        reference: null,
        sent_at: null,
        error: null,
      };
      expect(outbox.rows).toEqual([
        {
          ...common,
          channel: 'sms',
          recipient: '+4915123456789',
          body: 'Well 2: 31.5°C',
          voice_language: null,
          idempotency_key: smsJob.idempotencyKey,
        },
        {
          ...common,
          channel: 'sms',
          recipient: '+491701234567',
          body: 'Well 2: 31.5°C',
          voice_language: null,
          idempotency_key: smsJob.idempotencyKey,
        },
        {
          ...common,
          channel: 'voice',
          recipient: '+4915123456789',
          body: 'Achtung: Well 2',
          voice_language: 'de-DE',
          idempotency_key: expect.stringMatching(new RegExp(`:${call}$`)),
        },
      ]);
      expect(await notifier.queue.deadLetters('notify.action')).toEqual([]);
    } finally {
      await notifier.stop();
      await queue.close();
      await db.drop();
    }
  });
});
