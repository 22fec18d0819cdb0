/**
 * Users repository. Every read and write of a tenant's users takes the acting company id; the only
 * unscoped lookups are the ones that run before a tenant is known (login by email, a password reset token).
 */
import type { Role } from '@iot/domain';
import type { Queryable } from '../db';

const MAIN_USER_ROLE: Role = 'ROLE_MAINUSER';

export interface UserRecord {
  id: number;
  companyId: number | null;
  email: string;
  name: string;
  locale: string;
  roles: string[];
  eulaAccepted: boolean;
  requirePasswordReset: boolean;
  phone: string | null;
  lastLoginAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A user together with the password hash: only login and password changes need it. */
export interface UserWithSecret extends UserRecord {
  passwordHash: string;
}

interface UserRow {
  id: number;
  company_id: number | null;
  email: string;
  name: string;
  password_hash: string;
  locale: string;
  roles: string[];
  eula_accepted: boolean;
  require_password_reset: boolean;
  phone: string | null;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

// int8 ids come back as strings from pg and as numbers from PGlite; casting in SQL keeps both the same.
const COLUMNS = `id::int AS id, company_id::int AS company_id, email, name, password_hash, locale, roles,
  eula_accepted, require_password_reset, phone, last_login_at, created_at, updated_at`;

function toUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    email: row.email,
    name: row.name,
    locale: row.locale,
    roles: row.roles ?? [],
    eulaAccepted: row.eula_accepted,
    requirePasswordReset: row.require_password_reset,
    phone: row.phone,
    lastLoginAt: row.last_login_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toUserWithSecret(row: UserRow): UserWithSecret {
  return { ...toUser(row), passwordHash: row.password_hash };
}

/** Login looks a user up before any tenant is known; the address is unique platform-wide. */
export async function findUserForLogin(q: Queryable, email: string): Promise<UserWithSecret | null> {
  const { rows } = await q.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1) AND deleted_at IS NULL`,
    [email],
  );
  return rows[0] ? toUserWithSecret(rows[0]) : null;
}

export async function findUserById(q: Queryable, companyId: number, id: number): Promise<UserRecord | null> {
  const { rows } = await q.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE id = $1 AND company_id = $2 AND deleted_at IS NULL`,
    [id, companyId],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/** The password hash of one of the company's users (password change while signed in). */
export async function findUserSecret(
  q: Queryable,
  companyId: number,
  id: number,
): Promise<UserWithSecret | null> {
  const { rows } = await q.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE id = $1 AND company_id = $2 AND deleted_at IS NULL`,
    [id, companyId],
  );
  return rows[0] ? toUserWithSecret(rows[0]) : null;
}

export async function listUsers(q: Queryable, companyId: number): Promise<UserRecord[]> {
  const { rows } = await q.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE company_id = $1 AND deleted_at IS NULL ORDER BY lower(name), id`,
    [companyId],
  );
  return rows.map(toUser);
}

/** Whether an address is registered to any live user of the platform (code 73 is platform-wide). */
export async function isEmailRegistered(
  q: Queryable,
  email: string,
  exceptUserId?: number,
): Promise<boolean> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM users
      WHERE lower(email) = lower($1) AND deleted_at IS NULL AND ($2::bigint IS NULL OR id <> $2::bigint)`,
    [email, exceptUserId ?? null],
  );
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * Main users of a company. With `lock`, inside a transaction, the counted rows are locked until it ends,
 * so two concurrent demotions or deletions cannot both see "one more left" and leave none.
 */
export async function countMainUsers(q: Queryable, companyId: number, lock = false): Promise<number> {
  if (lock) {
    const { rows } = await q.query<{ id: number }>(
      `SELECT id FROM users WHERE company_id = $1 AND deleted_at IS NULL AND $2 = ANY(roles) FOR UPDATE`,
      [companyId, MAIN_USER_ROLE],
    );
    return rows.length;
  }
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM users
      WHERE company_id = $1 AND deleted_at IS NULL AND $2 = ANY(roles)`,
    [companyId, MAIN_USER_ROLE],
  );
  return rows[0]?.n ?? 0;
}

export interface NewUser {
  email: string;
  name: string;
  passwordHash: string;
  locale?: string;
  roles?: string[];
  phone?: string | null;
  requirePasswordReset?: boolean;
  eulaAccepted?: boolean;
}

export async function insertUser(q: Queryable, companyId: number | null, user: NewUser): Promise<UserRecord> {
  const { rows } = await q.query<UserRow>(
    `INSERT INTO users (company_id, email, name, password_hash, locale, roles, phone, require_password_reset, eula_accepted)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [
      companyId,
      user.email,
      user.name,
      user.passwordHash,
      user.locale ?? 'de',
      user.roles ?? [],
      user.phone ?? null,
      user.requirePasswordReset ?? false,
      user.eulaAccepted ?? false,
    ],
  );
  return toUser(rows[0]!);
}

export interface UserChanges {
  email?: string;
  name?: string;
  locale?: string;
  roles?: string[];
  phone?: string | null;
  passwordHash?: string;
  requirePasswordReset?: boolean;
  eulaAccepted?: boolean;
}

const CHANGE_COLUMNS: Record<keyof UserChanges, string> = {
  email: 'email',
  name: 'name',
  locale: 'locale',
  roles: 'roles',
  phone: 'phone',
  passwordHash: 'password_hash',
  requirePasswordReset: 'require_password_reset',
  eulaAccepted: 'eula_accepted',
};

export async function updateUser(
  q: Queryable,
  companyId: number,
  id: number,
  changes: UserChanges,
): Promise<UserRecord | null> {
  const sets: string[] = [];
  const params: unknown[] = [id, companyId];
  for (const [key, column] of Object.entries(CHANGE_COLUMNS) as [keyof UserChanges, string][]) {
    if (changes[key] === undefined) continue;
    params.push(changes[key]);
    sets.push(`${column} = $${params.length}`);
  }
  sets.push('updated_at = now()');
  const { rows } = await q.query<UserRow>(
    `UPDATE users SET ${sets.join(', ')} WHERE id = $1 AND company_id = $2 AND deleted_at IS NULL
     RETURNING ${COLUMNS}`,
    params,
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/** Soft delete: the row stays for the audit trail, the address becomes free again. */
export async function softDeleteUser(q: Queryable, companyId: number, id: number): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE users SET deleted_at = now(), updated_at = now() WHERE id = $1 AND company_id = $2 AND deleted_at IS NULL`,
    [id, companyId],
  );
  return rowCount > 0;
}

export async function recordUserLogin(q: Queryable, userId: number): Promise<void> {
  await q.query('UPDATE users SET last_login_at = now() WHERE id = $1', [userId]);
}

/**
 * Sets a new password for a user identified by a reset token (no tenant known yet) and clears the
 * forced-reset flag.
 */
export async function setUserPassword(q: Queryable, userId: number, passwordHash: string): Promise<void> {
  await q.query(
    `UPDATE users SET password_hash = $2, require_password_reset = false, updated_at = now()
      WHERE id = $1 AND deleted_at IS NULL`,
    [userId, passwordHash],
  );
}

export async function insertPasswordResetToken(
  q: Queryable,
  userId: number,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await q.query('INSERT INTO password_reset_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [
    tokenHash,
    userId,
    expiresAt,
  ]);
}

/**
 * Marks a reset token used and returns its user, in one statement so two concurrent resets cannot both
 * succeed; an unknown, used or expired token returns null.
 */
export async function consumePasswordResetToken(q: Queryable, tokenHash: string): Promise<number | null> {
  const { rows } = await q.query<{ user_id: number }>(
    `UPDATE password_reset_tokens SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
      RETURNING user_id::int AS user_id`,
    [tokenHash],
  );
  return rows[0]?.user_id ?? null;
}

export interface PasswordResetTokenState {
  userId: number;
  expiresAt: Date;
  usedAt: Date | null;
}

/** A reset token's state, to tell an expired or used link (67) from an unknown one (31). */
export async function findPasswordResetToken(
  q: Queryable,
  tokenHash: string,
): Promise<PasswordResetTokenState | null> {
  const { rows } = await q.query<{ user_id: number; expires_at: Date; used_at: Date | null }>(
    'SELECT user_id::int AS user_id, expires_at, used_at FROM password_reset_tokens WHERE token_hash = $1',
    [tokenHash],
  );
  const r = rows[0];
  return r ? { userId: r.user_id, expiresAt: r.expires_at, usedAt: r.used_at } : null;
}
