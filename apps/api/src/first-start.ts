/**
 * What the API process does with its database before it listens (issue #29, "first start"): create the
 * database when it is missing (or stop with one line), migrate it (one runner at a time: migrate.ts takes
 * an advisory lock), and on a database without any user create the INITIAL_ADMIN_EMAIL super admin.
 */
import type { Config } from '@iot/config';
import { type Db, ensureDatabase, migrate, openDb } from '@iot/db';
import type { Mailer } from '@iot/delivery';
import { SERVER_TEXTS, SUPER_ADMIN_COMPANY_ID } from '@iot/domain';
import type { FastifyBaseLogger } from 'fastify';
import { createFirstAdmin } from './services/create-first-admin';

/** Where emailed and printed links point: PUBLIC_URL, else this process's own port on localhost. */
export function publicBaseUrl(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
}

/** Opens the database, creating a missing PostgreSQL database first; `migrate: false` leaves the schema. */
export async function openDatabase(config: Config, options: { migrate: boolean }): Promise<Db> {
  if (config.DATABASE_URL) await ensureDatabase(config.DATABASE_URL);
  const db = await openDb(config);
  if (options.migrate) await migrate(db);
  return db;
}

/** INITIAL_ADMIN_EMAIL: the first super admin on a database without users; logs (and mails) the link. */
export async function createInitialAdmin(
  db: Db,
  config: Config,
  deps: { log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>; mailer: Mailer },
): Promise<void> {
  if (!config.INITIAL_ADMIN_EMAIL) return;
  const result = await createFirstAdmin(db, {
    email: config.INITIAL_ADMIN_EMAIL,
    baseUrl: publicBaseUrl(config),
    onlyIfEmpty: true,
  });
  if (!result.created) {
    deps.log.info({ reason: result.reason }, 'INITIAL_ADMIN_EMAIL ignored: the database has users');
    return;
  }
  // The one place the link is shown: whoever reads the first start's log (or the mailbox) sets the password.
  deps.log.warn(
    { email: result.email, link: result.link, expires_at: result.expiresAt.toISOString() },
    'first super admin created: open the link to choose a password (valid once)',
  );
  const params = { link: result.link, expires_at: result.expiresAt.toISOString() };
  const en = SERVER_TEXTS.initial_admin_mail.en(params, 'en');
  const de = SERVER_TEXTS.initial_admin_mail.de(params, 'de');
  // A mail that fails leaves the logged link: the start goes on.
  await deps.mailer
    .send({
      to: result.email,
      companyId: SUPER_ADMIN_COMPANY_ID,
      // Nobody chose a language yet: both, English first.
      subject: `${en.subject} / ${de.subject}`,
      text: `${en.text}\n\n${de.text}\n`,
    })
    .catch((err: unknown) => deps.log.error({ err }, "the first super admin's mail was not sent"));
}
