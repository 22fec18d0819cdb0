/**
 * The first super admin of a deployment without demo data (`npm run admin:create`, INITIAL_ADMIN_EMAIL):
 * the super admin's company (id 1, every module) when it is missing and its first user, under an advisory
 * lock so that two API replicas starting together on an empty database create one admin, not two.
 */
import { MODULES, SUPER_ADMIN_COMPANY_ID } from '@iot/domain';
import type { Queryable } from '../db';
import { insertUser, type NewUser, type UserRecord } from './users';

// Any fixed 64-bit number, distinct from the migration runner's.
const LOCK_KEY = 4_711_000_002;

export type FirstAdminOutcome =
  | { created: true; user: UserRecord }
  /** `super_admin_exists`: the company has a user already; `not_empty`: any user exists (onlyIfEmpty). */
  | { created: false; reason: 'super_admin_exists' | 'not_empty'; email: string };

/** Call inside a transaction. `onlyIfEmpty`: create only when the database has no user at all. */
export async function insertFirstSuperAdmin(
  tx: Queryable,
  user: NewUser,
  options: { onlyIfEmpty: boolean },
): Promise<FirstAdminOutcome> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
  const admins = await tx.query<{ email: string }>(
    'SELECT email FROM users WHERE company_id = $1 ORDER BY id LIMIT 1',
    [SUPER_ADMIN_COMPANY_ID],
  );
  if (admins.rows[0]) return { created: false, reason: 'super_admin_exists', email: admins.rows[0].email };
  if (options.onlyIfEmpty) {
    const anyone = await tx.query<{ email: string }>('SELECT email FROM users ORDER BY id LIMIT 1');
    if (anyone.rows[0]) return { created: false, reason: 'not_empty', email: anyone.rows[0].email };
  }
  await tx.query(
    `INSERT INTO companies (id, name, modules) VALUES ($1, 'Platform Administration', $2)
     ON CONFLICT (id) DO NOTHING`,
    [SUPER_ADMIN_COMPANY_ID, [...MODULES]],
  );
  // The explicit id above must not be handed out again by the sequence.
  await tx.query(`SELECT setval(pg_get_serial_sequence('companies', 'id'), (SELECT max(id) FROM companies))`);
  return { created: true, user: await insertUser(tx, SUPER_ADMIN_COMPANY_ID, user) };
}
