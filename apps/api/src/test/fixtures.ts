/**
 * Companies and users a test needs, created directly in the database (the demo seed is not used).
 * Company 1 is the super admin company (spec section 1); every other company gets the next id.
 */

import { randomBytes } from 'node:crypto';
import type { Db } from '@iot/db';
import { type CompanyRecord, findCompany, insertCompany, insertUser, type UserRecord } from '@iot/db';
import { hashPassword } from '../lib/passwords';

/** Satisfies the password policy of spec section 5 (upper, lower, digit, special, 10+). */
export const PASSWORD = 'Correct-Horse7!';

let passwordHash: Promise<string> | undefined;
function fixtureHash(): Promise<string> {
  // argon2 is slow on purpose; every fixture user shares one hash of PASSWORD.
  passwordHash ??= hashPassword(PASSWORD);
  return passwordHash;
}

export function uniqueEmail(prefix = 'user'): string {
  // 64 bits: the authorization matrix creates thousands of users in one database, and 32 bits collided
  // there (users_email_key) about once in a hundred full runs.
  return `${prefix}.${randomBytes(8).toString('hex')}@example.test`;
}

/** The super admin company with id 1 (created once per database). */
export async function superAdminCompany(db: Db): Promise<CompanyRecord> {
  await db.query(
    `INSERT INTO companies (id, name) VALUES (1, 'Platform operator') ON CONFLICT (id) DO NOTHING`,
  );
  // The explicit id does not advance the sequence; move it past every existing id.
  await db.query(`SELECT setval(pg_get_serial_sequence('companies', 'id'), (SELECT max(id) FROM companies))`);
  const company = await findCompany(db, 1);
  if (!company) throw new Error('super admin company missing');
  return company;
}

export async function createCompany(
  db: Db,
  options: { name?: string; modules?: string[]; blocked?: boolean; isNwa?: boolean } = {},
): Promise<CompanyRecord> {
  await superAdminCompany(db);
  return insertCompany(db, {
    name: options.name ?? `Company ${randomBytes(3).toString('hex')}`,
    modules: options.modules ?? [],
    blocked: options.blocked ?? false,
    isNwa: options.isNwa ?? false,
  });
}

export interface FixtureUser extends UserRecord {
  password: string;
}

export async function createUser(
  db: Db,
  companyId: number | null,
  options: {
    email?: string;
    name?: string;
    roles?: string[];
    eulaAccepted?: boolean;
    requirePasswordReset?: boolean;
    locale?: string;
  } = {},
): Promise<FixtureUser> {
  const user = await insertUser(db, companyId, {
    email: options.email ?? uniqueEmail(),
    name: options.name ?? 'Test User',
    passwordHash: await fixtureHash(),
    roles: options.roles ?? [],
    eulaAccepted: options.eulaAccepted ?? true,
    requirePasswordReset: options.requirePasswordReset ?? false,
    locale: options.locale ?? 'en',
  });
  return { ...user, password: PASSWORD };
}

/** A company with a main user, an admin and a plain user: the usual cast of a test. */
export async function createTeam(db: Db, options: { modules?: string[] } = {}) {
  const company = await createCompany(db, options);
  const main = await createUser(db, company.id, { roles: ['ROLE_MAINUSER'], name: 'Main User' });
  const admin = await createUser(db, company.id, { roles: ['ROLE_ADMIN'], name: 'Admin User' });
  const plain = await createUser(db, company.id, { roles: [], name: 'Plain User' });
  return { company, main, admin, plain };
}

/** A super admin user (company 1) with the admin and main roles. */
export async function createSuperAdmin(db: Db): Promise<FixtureUser> {
  await superAdminCompany(db);
  return createUser(db, 1, { roles: ['ROLE_ADMIN', 'ROLE_MAINUSER'], name: 'Super Admin' });
}
