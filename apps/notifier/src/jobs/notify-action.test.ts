import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { forEachDb } from '@iot/db/testing';
import { createDbJobKeyStore, InProcessJobQueue, JobPayloadError, notifyActionJob } from '@iot/jobs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type NotifierService, startNotifier } from '../index';
import {
  createAction,
  createFixture,
  payloadFor,
  silentLog,
  testConfig,
  waitFor,
} from '../test-support/fixtures';

/** A port nothing listens on: SMTP connections to it are refused at once. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

forEachDb((suite) => {
  let notifier: NotifierService;
  let queue: InProcessJobQueue;

  beforeAll(async () => {
    queue = new InProcessJobQueue({ keys: createDbJobKeyStore(suite.db) });
    notifier = await startNotifier({
      config: testConfig({ SMTP_URL: `smtp://127.0.0.1:${await deadPort()}` }),
      db: suite.db,
      log: silentLog,
      queue,
      job: notifyActionJob({ timeoutMs: 5_000, retry: { attempts: 3, delayMs: 30 } }),
    });
  });
  afterAll(async () => {
    await notifier?.stop();
    await queue?.close();
  });

  it('writes a system message row (company, subject, body, device, rule, level)', async () => {
    const fixture = await createFixture(suite.db, { deviceName: 'Boiler', ruleName: 'Overheat' });
    const actionId = await createAction(suite.db, fixture, {
      type: 'system',
      subject: '{rule} on {device}',
      body: '{field} reached {value} {unit} at {time}',
      settings: { level: 3 },
    });
    await notifier.enqueue(payloadFor(fixture, actionId));
    await waitFor(
      async () =>
        (await suite.db.query('SELECT 1 FROM messages WHERE company_id = $1', [fixture.companyId])).rows
          .length === 1,
      'the message',
    );
    const { rows } = await suite.db.query(
      'SELECT company_id, user_id, subject, body, level, is_read, device_id, rule_id FROM messages WHERE company_id = $1',
      [fixture.companyId],
    );
    expect(rows).toEqual([
      {
        company_id: fixture.companyId,
        user_id: null,
        subject: 'Overheat on Boiler',
        body: 'Temperature reached 31.5 °C at 2026-07-01 14:00:00 CEST',
        level: 3,
        is_read: false,
        device_id: fixture.deviceId,
        rule_id: fixture.ruleId,
      },
    ]);
  });

  it('retries a failing delivery with backoff, logs every attempt, then dead-letters the job', async () => {
    const fixture = await createFixture(suite.db);
    const actionId = await createAction(suite.db, fixture, {
      type: 'email',
      recipients: ['ops@example.test'],
    });
    const payload = payloadFor(fixture, actionId);
    const { idempotencyKey } = await notifier.enqueue(payload);
    await waitFor(
      async () => (await queue.deadLetters('notify.action')).some((d) => d.idempotencyKey === idempotencyKey),
      'the dead letter',
    );
    const { rows } = await suite.db.query<{
      status: string;
      error: string;
      details: Record<string, unknown>;
    }>('SELECT status, error, details FROM notification_log WHERE idempotency_key = $1 ORDER BY id', [
      idempotencyKey,
    ]);
    expect(rows.map((r) => [r.status, r.details.attempt, r.details.final, r.details.deadLetter])).toEqual([
      ['failed', 1, false, false],
      ['failed', 2, false, false],
      ['failed', 3, true, true],
    ]);
    expect(rows[2]!.error).toMatch(/ECONNREFUSED/);
    const letter = (await queue.deadLetters('notify.action')).find(
      (d) => d.idempotencyKey === idempotencyKey,
    );
    expect(letter).toMatchObject({ attempts: 3, payload });
    expect(idempotencyKey).toBe(`${fixture.ruleId}:${payload.uplinkMessageId}:${actionId}`);
  });

  it('tells the company once when it gives up on an action, again only after the message was read', async () => {
    const fixture = await createFixture(suite.db, { deviceName: 'Cold store', ruleName: 'Too warm' });
    const other = await createFixture(suite.db, { companyName: 'Other' });
    const actionId = await createAction(suite.db, fixture, {
      type: 'email',
      recipients: ['ops@example.test'],
    });
    const giveUp = async () => {
      const { idempotencyKey } = await notifier.enqueue(payloadFor(fixture, actionId));
      await waitFor(
        async () =>
          (await queue.deadLetters('notify.action')).some((d) => d.idempotencyKey === idempotencyKey),
        'the dead letter',
      );
    };
    const messages = async () =>
      (
        await suite.db.query<{
          subject: string;
          body: string;
          level: number;
          device_id: number;
          rule_id: number;
        }>(
          `SELECT subject, body, level, device_id, rule_id, kind, params FROM messages
            WHERE company_id = $1 ORDER BY id`,
          [fixture.companyId],
        )
      ).rows;

    await giveUp();
    const [first] = await messages();
    expect(first).toMatchObject({
      subject: 'Action not carried out: Too warm',
      level: 3,
      device_id: fixture.deviceId,
      rule_id: fixture.ruleId,
      kind: 'action_failed',
      params: {
        action_id: actionId,
        rule: 'Too warm',
        device: 'Cold store',
        channel: 'email',
        recipient: 'ops@example.test',
        command: null,
        attempts: 3,
      },
    });
    expect(first!.body).toMatch(/^email to ops@example\.test: .*ECONNREFUSED/);
    // A second failure while the first message is unread adds none.
    await giveUp();
    expect(await messages()).toHaveLength(1);
    // Once read, the next failure is news again.
    await suite.db.query('UPDATE messages SET is_read = true WHERE company_id = $1', [fixture.companyId]);
    await giveUp();
    expect(await messages()).toHaveLength(2);
    // Nothing reached another company.
    const { rows } = await suite.db.query('SELECT 1 FROM messages WHERE company_id = $1', [other.companyId]);
    expect(rows).toEqual([]);
  });

  it('never reads another company’s device or action: a crossed payload is dead-lettered, nothing sent', async () => {
    const a = await createFixture(suite.db, { companyName: 'A' });
    const b = await createFixture(suite.db, { companyName: 'B', deviceName: 'Secret device of B' });
    const actionOfA = await createAction(suite.db, a, { type: 'system', subject: '{device}' });
    const actionOfB = await createAction(suite.db, b, { type: 'system', subject: '{device}' });
    const crossed = [
      payloadFor(a, actionOfA, { deviceId: b.deviceId }), // A's action about B's device
      payloadFor(a, actionOfB, { ruleId: b.ruleId }), // B's action claimed by A
      payloadFor(b, actionOfA, { ruleId: a.ruleId, deviceId: a.deviceId }), // A's action claimed by B
    ];
    for (const payload of crossed) await notifier.enqueue(payload);
    await waitFor(async () => {
      const letters = await queue.deadLetters('notify.action');
      return crossed.every((p) => letters.some((d) => d.idempotencyKey.includes(p.uplinkMessageId)));
    }, 'three dead letters');
    const letters = await queue.deadLetters('notify.action');
    for (const payload of crossed) {
      const letter = letters.find((d) => d.idempotencyKey.includes(payload.uplinkMessageId))!;
      expect(letter.attempts).toBe(1);
      expect(letter.error).toMatch(/not found in company/);
    }
    const messages = await suite.db.query('SELECT 1 FROM messages WHERE company_id = ANY($1)', [
      [a.companyId, b.companyId],
    ]);
    expect(messages.rows).toEqual([]);
  });

  it('refuses a payload that fails the catalogue schema at enqueue', async () => {
    await expect(
      notifier.enqueue({ companyId: 1, ruleId: 1, actionId: 1, deviceId: 1 } as never),
    ).rejects.toBeInstanceOf(JobPayloadError);
  });
});
