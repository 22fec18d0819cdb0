/**
 * Sessions repository. A session row is keyed by the sha-256 hash of the random token the browser holds
 * in its HttpOnly cookie, so a leaked table does not leak usable sessions. The row also carries the
 * session's CSRF token and, while a super admin acts as a client, the impersonated company.
 */
import type { Queryable } from '../db';

export interface SessionRecord {
  id: string;
  userId: number;
  impersonatedCompanyId: number | null;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  /** The user's own company (null: user without company). */
  userCompanyId: number | null;
  userDeleted: boolean;
  companyBlocked: boolean;
  companyDeleted: boolean;
}

export interface NewSession {
  id: string;
  userId: number;
  csrfToken: string;
  ip?: string | null;
  userAgent?: string | null;
  lifetimeSeconds: number;
}

export async function insertSession(q: Queryable, session: NewSession): Promise<void> {
  await q.query(
    `INSERT INTO sessions (id, user_id, csrf_token, ip, user_agent, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
    [
      session.id,
      session.userId,
      session.csrfToken,
      session.ip ?? null,
      session.userAgent ?? null,
      session.lifetimeSeconds,
    ],
  );
}

/** A live (not expired) session with the state of its user and the user's own company. */
export async function findLiveSession(q: Queryable, id: string): Promise<SessionRecord | null> {
  const { rows } = await q.query<{
    id: string;
    user_id: number;
    impersonated_company_id: number | null;
    csrf_token: string;
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
    user_company_id: number | null;
    user_deleted: boolean;
    company_blocked: boolean | null;
    company_deleted: boolean | null;
  }>(
    `SELECT s.id, s.user_id::int AS user_id, s.impersonated_company_id::int AS impersonated_company_id,
            s.csrf_token, s.created_at, s.last_seen_at, s.expires_at,
            u.company_id::int AS user_company_id, (u.deleted_at IS NOT NULL) AS user_deleted,
            c.blocked AS company_blocked, (c.deleted_at IS NOT NULL) AS company_deleted
       FROM sessions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN companies c ON c.id = u.company_id
      WHERE s.id = $1 AND s.expires_at > now()`,
    [id],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    userId: r.user_id,
    impersonatedCompanyId: r.impersonated_company_id,
    csrfToken: r.csrf_token,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    expiresAt: r.expires_at,
    userCompanyId: r.user_company_id,
    userDeleted: r.user_deleted,
    companyBlocked: r.company_blocked ?? false,
    companyDeleted: r.company_deleted ?? false,
  };
}

/**
 * Slides the expiry: a used session lives `lifetimeSeconds` past its last use. Writes at most once per
 * `minIntervalSeconds` so a busy console does not turn every read into a write.
 */
export async function touchSession(
  q: Queryable,
  id: string,
  lifetimeSeconds: number,
  minIntervalSeconds: number,
): Promise<void> {
  await q.query(
    `UPDATE sessions SET last_seen_at = now(), expires_at = now() + make_interval(secs => $2)
      WHERE id = $1 AND last_seen_at <= now() - make_interval(secs => $3)`,
    [id, lifetimeSeconds, minIntervalSeconds],
  );
}

export async function deleteSession(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM sessions WHERE id = $1', [id]);
}

/** Revokes every session of a user, except optionally the one making the request. */
export async function deleteUserSessions(q: Queryable, userId: number, exceptId?: string): Promise<number> {
  const { rowCount } = await q.query(
    'DELETE FROM sessions WHERE user_id = $1 AND ($2::text IS NULL OR id <> $2)',
    [userId, exceptId ?? null],
  );
  return rowCount;
}

export async function setSessionImpersonation(
  q: Queryable,
  id: string,
  companyId: number | null,
): Promise<void> {
  await q.query('UPDATE sessions SET impersonated_company_id = $2 WHERE id = $1', [id, companyId]);
}

export async function deleteExpiredSessions(q: Queryable): Promise<number> {
  const { rowCount } = await q.query('DELETE FROM sessions WHERE expires_at <= now()');
  return rowCount;
}

export interface AuditEvent {
  companyId: number | null;
  userId: number | null;
  action: string;
  details?: Record<string, unknown>;
}

/** Security-relevant events of a session's life: login, logout, password reset, impersonation. */
export async function recordAuditEvent(q: Queryable, event: AuditEvent): Promise<void> {
  await q.query('INSERT INTO audit_log (company_id, user_id, action, details) VALUES ($1, $2, $3, $4)', [
    event.companyId,
    event.userId,
    event.action,
    JSON.stringify(event.details ?? {}),
  ]);
}
