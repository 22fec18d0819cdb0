/**
 * The first super admin (issue #29): INITIAL_ADMIN_EMAIL on the first start of a database without users,
 * once even when replicas start together, never again; the command's path refuses a second super admin.
 */
import { loadConfig } from '@iot/config';
import { forEachDb } from '@iot/db/testing';
import { createMailer } from '@iot/delivery';
import { expect, it } from 'vitest';
import { createInitialAdmin } from './first-start';
import { createFirstAdmin } from './services/create-first-admin';

forEachDb((suite) => {
  const logged: string[] = [];
  const record = (_details: unknown, message?: string) => void logged.push(message ?? '');
  const log = { info: record, warn: record, error: record } as never;
  const superAdmins = async () =>
    (await suite.db.query<{ email: string }>('SELECT email FROM users WHERE company_id = 1 ORDER BY id'))
      .rows;
  const mails = async () =>
    (
      await suite.db.query<{ recipients: string[]; body: string }>(
        'SELECT recipients, body FROM outbox_emails',
      )
    ).rows;

  it('creates one super admin from INITIAL_ADMIN_EMAIL when replicas start together, and never again', async () => {
    const config = loadConfig({
      INITIAL_ADMIN_EMAIL: 'first@ops.test',
      PUBLIC_URL: 'https://iot.example.test',
    });
    const mailer = createMailer(config, suite.db);
    await Promise.all([1, 2, 3].map(() => createInitialAdmin(suite.db, config, { log, mailer })));
    expect(await superAdmins()).toEqual([{ email: 'first@ops.test' }]);
    const sent = await mails();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.recipients).toEqual(['first@ops.test']);
    expect(sent[0]?.body).toMatch(/https:\/\/iot\.example\.test\/login\/reset-password\/[\w-]{43}/);

    // A later start with another address (or the same) changes nothing.
    const later = { ...config, INITIAL_ADMIN_EMAIL: 'other@ops.test' };
    await createInitialAdmin(suite.db, later, { log, mailer });
    expect(await superAdmins()).toEqual([{ email: 'first@ops.test' }]);
    expect(await mails()).toHaveLength(1);

    // The command refuses a second super admin and names the first.
    const again = await createFirstAdmin(suite.db, {
      email: 'second@ops.test',
      baseUrl: 'http://localhost:8080',
      onlyIfEmpty: false,
    });
    expect(again).toEqual({ created: false, reason: 'super_admin_exists', email: 'first@ops.test' });
    // The company the admin sits in is the super admin's, and the sequence moved past it.
    const company = await suite.db.query<{ id: number }>(
      "INSERT INTO companies (name) VALUES ('Next') RETURNING id::int AS id",
    );
    expect(company.rows[0]?.id).toBeGreaterThan(1);
    expect(logged.filter((m) => m.startsWith('first super admin created'))).toHaveLength(1);
  });

  it('refuses an address that is none (422)', async () => {
    await expect(
      createFirstAdmin(suite.db, { email: 'not an address', baseUrl: 'http://x.test', onlyIfEmpty: false }),
    ).rejects.toMatchObject({ status: 422 });
  });
});
