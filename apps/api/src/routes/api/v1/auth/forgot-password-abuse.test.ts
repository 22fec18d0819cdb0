/**
 * Issue #28, finding 5: forgot-password must not tell by its timing whether an account exists (the mail
 * is sent after the answer), and must not become a mail cannon at one account (reset mails are capped per
 * account per hour, not only per client address).
 */
import type { Db } from '@iot/db';
import type { Mailer, MailMessage } from '@iot/delivery';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/app';
import { TestClient } from '../../../../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../../../../test/databases';
import { createTeam } from '../../../../test/fixtures';

/** A mail server that takes messages only when released: a slow SMTP server. */
function blockingMailer() {
  const sent: MailMessage[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const mailer: Mailer = {
    send: async (message) => {
      await released;
      sent.push(message);
      return { via: 'smtp' };
    },
  };
  return { mailer, sent, release };
}

describe.each(DB_KINDS)('forgot-password under abuse on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await testDb?.drop();
  });

  const start = async (mailer?: Mailer) => {
    const app = buildTestApp(db, mailer ? { mailer } : {});
    apps.push(app);
    await app.ready();
    return app;
  };
  const ask = async (app: FastifyInstance, email: string, ip = '127.0.0.1') => {
    const client = new TestClient(app, ip);
    await client.csrf();
    return client.post('/api/v1/auth/forgot-password', { email });
  };

  it('answers at once while the mail server blocks: the mail is sent after the answer', async () => {
    const { mailer, sent, release } = blockingMailer();
    const app = await start(mailer);
    const { plain } = await createTeam(db);
    const answer = ask(app, plain.email).then((res) => res.status);
    const timeout = new Promise((resolve) => setTimeout(resolve, 2000, 'still waiting for the mail'));
    const first = await Promise.race([answer, timeout]);
    release();
    expect(first).toBe(200);
    await app.deps.afterAnswer.settled();
    expect(sent.map((m) => m.to)).toEqual([plain.email]);
  });

  it('sends at most three reset mails per account per hour, whichever addresses ask', async () => {
    const app = await start();
    const { plain } = await createTeam(db);
    for (let i = 0; i < 5; i++) expect((await ask(app, plain.email, `203.0.113.${i + 1}`)).status).toBe(200);
    await app.deps.afterAnswer?.settled();
    const { rows } = await db.query('SELECT 1 FROM outbox_emails WHERE $1 = ANY(recipients)', [plain.email]);
    expect(rows).toHaveLength(3);
  });
});
