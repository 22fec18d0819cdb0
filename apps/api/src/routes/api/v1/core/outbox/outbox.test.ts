import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

forEachDb((suite) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  async function signIn(email: string) {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  }

  async function mail(
    companyId: number,
    to: string,
    subject: string,
    state: { sent?: boolean; error?: string } = {},
  ) {
    await suite.db.query(
      `INSERT INTO outbox_emails (company_id, recipients, subject, body, sent_at, error)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [companyId, [to], subject, `${subject} body`, state.sent ? new Date() : null, state.error ?? null],
    );
  }

  async function phone(companyId: number, channel: 'sms' | 'voice', body: string, sid: string | null = null) {
    await suite.db.query(
      `INSERT INTO outbox_phone_messages (company_id, channel, recipient, body, voice_language, idempotency_key,
                                          reference, sent_at)
       VALUES ($1, $2, '+4915228817386', $3, $4, $5, $6, $7)`,
      [
        companyId,
        channel,
        body,
        channel === 'voice' ? 'de-DE' : null,
        `k:${body}`,
        sid,
        sid ? new Date() : null,
      ],
    );
  }

  it('lists the company’s mail, SMS and calls newest first with their state, to managers only (90009)', async () => {
    const team = await createTeam(suite.db);
    const stranger = await createTeam(suite.db);
    await mail(team.company.id, 'alerts@example.test', 'Alarm 1');
    await mail(team.company.id, 'alerts@example.test', 'Alarm 2', { sent: true });
    await mail(team.company.id, 'alerts@example.test', 'Alarm 3', { error: 'SMTP 550' });
    await mail(stranger.company.id, 'alerts@example.test', 'Foreign');
    await phone(team.company.id, 'sms', 'SMS kept');
    await phone(team.company.id, 'voice', 'Call placed', 'CA00000000000000000000000000000001');
    await phone(stranger.company.id, 'sms', 'Foreign SMS');

    for (const user of [team.main, team.admin]) {
      const answer = await (await signIn(user.email)).get('/api/v1/core/outbox');
      expect(answer.status).toBe(200);
      const { emails, phone_messages } = answer.body.payload;
      expect(emails.map((m: { subject: string; state: string }) => [m.subject, m.state])).toEqual([
        ['Alarm 3', 'failed'],
        ['Alarm 2', 'sent'],
        ['Alarm 1', 'unsent'],
      ]);
      expect(
        phone_messages.map(
          (m: { channel: string; body: string; state: string; voice_language: string | null }) => [
            m.channel,
            m.body,
            m.state,
            m.voice_language,
          ],
        ),
      ).toEqual([
        ['voice', 'Call placed', 'sent', 'de-DE'],
        ['sms', 'SMS kept', 'unsent', null],
      ]);
    }
    const plain = await (await signIn(team.plain.email)).get('/api/v1/core/outbox');
    expect(plain.body.code).toBe(90009);
  });

  it('leaves out mail to another user of the company (a password reset link), not the reader’s own', async () => {
    const team = await createTeam(suite.db);
    await mail(team.company.id, team.plain.email.toUpperCase(), 'Reset your password');
    await mail(team.company.id, team.main.email, 'Alarm for the main user');
    const asMain = await (await signIn(team.main.email)).get('/api/v1/core/outbox');
    expect(asMain.body.payload.emails.map((m: { subject: string }) => m.subject)).toEqual([
      'Alarm for the main user',
    ]);
    const asAdmin = await (await signIn(team.admin.email)).get('/api/v1/core/outbox');
    expect(asAdmin.body.payload.emails).toEqual([]);
  });
});
