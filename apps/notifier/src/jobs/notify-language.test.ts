/**
 * The same alarm in each reader's language (issue #23): a rule's mail goes to a German user in German
 * and to an English user in English (one mail per language), an address that is no user gets the
 * company's language, an SMS to a user's number their locale, and a blank system message is stored as the
 * `rule_alarm` kind that the API words per reader. Loaded by the notifier, and preloaded by the rules
 * worker's firing transaction (findActionDeliveries), on both databases.
 */
import { findActionDeliveries } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { mailText, startTestSmtp, type TestSmtp } from '@iot/delivery/testing/smtp';
import { createDbJobKeyStore, InProcessJobQueue, notifyActionJob } from '@iot/jobs';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

forEachDb((suite) => {
  let smtp: TestSmtp;
  let notifier: NotifierService;
  let queue: InProcessJobQueue;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    queue = new InProcessJobQueue({ keys: createDbJobKeyStore(suite.db) });
    notifier = await startNotifier({
      config: testConfig({ SMTP_URL: smtp.url, MAIL_FROM: 'IoT <alarm@iot.test>' }),
      db: suite.db,
      log: silentLog,
      queue,
      job: notifyActionJob({ timeoutMs: 5_000, retry: { attempts: 2, delayMs: 50 } }),
    });
  });
  afterAll(async () => {
    await notifier?.stop();
    await queue?.close();
    await smtp?.close();
  });

  const users = (tag: string) => [
    { email: `Anna-${tag}@example.test`, locale: 'de', phone: `+4915100000${tag.length}1` },
    { email: `ben-${tag}@example.test`, locale: 'en', roles: ['ROLE_MAINUSER'] },
  ];

  async function mailsOf(fixture: Fixture, payload: ReturnType<typeof payloadFor>, count: number) {
    const before = smtp.received.length;
    await notifier.enqueue(payload);
    await waitFor(() => smtp.received.length >= before + count, `${count} mails`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const mails = smtp.received.slice(before).map((m) => ({ to: [...m.to].sort(), text: mailText(m.data) }));
    expect(mails, `mails of company ${fixture.companyId}`).toHaveLength(count);
    return mails;
  }

  for (const path of ['loaded', 'preloaded'] as const) {
    it(`mails a German user in German and an English user in English for the same alarm (${path})`, async () => {
      const tag = `${path}-${suite.kind}`;
      const fixture = await createFixture(suite.db, {
        deviceName: 'Beet 4',
        ruleName: 'Trocken',
        users: users(tag),
      });
      const actionId = await createAction(suite.db, fixture, {
        type: 'email',
        recipients: [`anna-${tag}@example.test`, `ben-${tag}@example.test`, `ops-${tag}@outside.test`],
      });
      let payload = payloadFor(fixture, actionId, { field: 'soil_humidity', value: 12 });
      if (path === 'preloaded') {
        const [rows] = await findActionDeliveries(suite.db, [{ ...payload }]);
        payload = { ...payload, preloaded: rows! };
      }
      const mails = await mailsOf(fixture, payload, 2);
      const german = mails.find((m) => m.to.includes(`anna-${tag}@example.test`))!;
      const english = mails.find((m) => m.to.includes(`ben-${tag}@example.test`))!;
      expect(german.to).toEqual([`anna-${tag}@example.test`]);
      expect(german.text).toContain('Subject: Trocken: Beet 4');
      expect(german.text).toContain(
        'Beet 4: Bodenfeuchte = 12 % um 2026-07-01 14:00:00 CEST (Regel Trocken)',
      );
      // The outside address reads the company's language: English, the language of its main user.
      expect(english.to).toEqual([`ben-${tag}@example.test`, `ops-${tag}@outside.test`]);
      expect(english.text).toContain(
        'Beet 4: Soil moisture = 12 % at 2026-07-01 14:00:00 CEST (rule Trocken)',
      );
    });
  }

  it("words an outside address in the company's language, and a user's SMS in the user's", async () => {
    const tag = `company-${suite.kind}`;
    const fixture = await createFixture(suite.db, {
      deviceName: 'Beet 5',
      ruleName: 'Dry',
      users: [
        {
          email: `chef-${tag}@example.test`,
          locale: 'de',
          roles: ['ROLE_MAINUSER'],
          phone: '+4915112345678',
        },
        { email: `dev-${tag}@example.test`, locale: 'en', phone: '+4915187654321' },
      ],
    });
    const mailAction = await createAction(suite.db, fixture, {
      type: 'email',
      recipients: [`x-${tag}@outside.test`],
    });
    const [mail] = await mailsOf(fixture, payloadFor(fixture, mailAction, { field: 'temperature' }), 1);
    expect(mail!.text).toContain('Beet 5: Temperatur = 31,5 °C um 2026-07-01 14:00:00 CEST (Regel Dry)');

    const smsAction = await createAction(suite.db, fixture, {
      type: 'sms',
      recipients: ['+4915112345678', '+4915187654321'],
      body: '{device}: {field} {value}',
    });
    await notifier.enqueue(payloadFor(fixture, smsAction));
    const sms = async () =>
      (
        await suite.db.query<{ recipient: string; body: string }>(
          'SELECT recipient, body FROM outbox_phone_messages WHERE company_id = $1 ORDER BY recipient',
          [fixture.companyId],
        )
      ).rows;
    await waitFor(async () => (await sms()).length === 2, 'two SMS');
    expect(await sms()).toEqual([
      { recipient: '+4915112345678', body: 'Beet 5: Temperatur 31,5' },
      { recipient: '+4915187654321', body: 'Beet 5: Temperature 31.5' },
    ]);
  });

  it('stores a blank system message as the rule_alarm kind with its parameters', async () => {
    const fixture = await createFixture(suite.db, { deviceName: 'Beet 6', ruleName: 'Wet' });
    const actionId = await createAction(suite.db, fixture, { type: 'system' });
    await notifier.enqueue(payloadFor(fixture, actionId, { field: 'soil_humidity', value: 80 }));
    const rows = async () =>
      (
        await suite.db.query<{
          subject: string;
          body: string;
          kind: string;
          params: Record<string, unknown>;
        }>('SELECT subject, body, kind, params FROM messages WHERE company_id = $1', [fixture.companyId])
      ).rows;
    await waitFor(async () => (await rows()).length === 1, 'the message');
    const [message] = await rows();
    expect(message).toMatchObject({
      subject: 'Wet: Beet 6',
      body: 'Beet 6: Soil moisture = 80 % at 2026-07-01 14:00:00 CEST',
      kind: 'rule_alarm',
      params: { rule: 'Wet', device: 'Beet 6', field: 'soil_humidity', value: 80, unit: '%' },
    });
  });
});
