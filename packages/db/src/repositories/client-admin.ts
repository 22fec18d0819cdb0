/**
 * What the super admin's client administration needs beyond the companies table (issue #27): ending a
 * client's sessions when it is blocked or deleted, and the record of who acted as the client.
 */
import type { Queryable } from '../db';

/**
 * Ends every session of the company's users. A super admin acting as the company keeps the session: a
 * blocked client stays reachable for support, and one acting as a deleted client falls back to itself.
 */
export async function deleteCompanySessions(q: Queryable, companyId: number): Promise<number> {
  const { rowCount } = await q.query(
    'DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE company_id = $1)',
    [companyId],
  );
  return rowCount;
}

export interface ImpersonationEntry {
  id: number;
  action: 'start' | 'end';
  userId: number | null;
  userName: string | null;
  userEmail: string | null;
  ip: string | null;
  createdAt: Date;
}

/** Starts and ends of impersonation of the company, newest first (from the audit log). */
export async function listImpersonations(
  q: Queryable,
  companyId: number,
  limit = 200,
): Promise<ImpersonationEntry[]> {
  const { rows } = await q.query<{
    id: number;
    action: string;
    user_id: number | null;
    user_name: string | null;
    user_email: string | null;
    ip: string | null;
    created_at: Date;
  }>(
    `SELECT a.id::int AS id, a.action, a.user_id::int AS user_id, u.name AS user_name, u.email AS user_email,
            a.details->>'ip' AS ip, a.created_at
       FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
      WHERE a.company_id = $1 AND a.action IN ('impersonation.start', 'impersonation.end')
      ORDER BY a.created_at DESC, a.id DESC LIMIT $2`,
    [companyId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    action: r.action === 'impersonation.start' ? 'start' : 'end',
    userId: r.user_id,
    userName: r.user_name,
    userEmail: r.user_email,
    ip: r.ip,
    createdAt: r.created_at,
  }));
}

/** The ISO code of a country of the reference list (AT, CH, DE, FR), null when unknown. */
export async function findCountryCode(q: Queryable, countryId: number): Promise<string | null> {
  const { rows } = await q.query<{ code: string }>('SELECT code FROM countries WHERE id = $1', [countryId]);
  return rows[0]?.code ?? null;
}

/** What purging a deleted client removes, counted per kind (issue #27). */
export interface CompanyPurgePreview {
  users: number;
  devices: number;
  dataPoints: number;
  rules: number;
  alarms: number;
  dashboards: number;
  groups: number;
  apiKeys: number;
}

export async function previewCompanyPurge(q: Queryable, companyId: number): Promise<CompanyPurgePreview> {
  const { rows } = await q.query<CompanyPurgePreview>(
    `SELECT (SELECT count(*)::int FROM users WHERE company_id = $1) AS users,
            (SELECT count(*)::int FROM devices WHERE company_id = $1) AS devices,
            (SELECT count(*)::int FROM device_readings
              WHERE series IN (SELECT id FROM device_series WHERE company_id = $1)) AS "dataPoints",
            (SELECT count(*)::int FROM rules WHERE company_id = $1) AS rules,
            (SELECT count(*)::int FROM alarms WHERE company_id = $1) AS alarms,
            (SELECT count(*)::int FROM dashboards WHERE company_id = $1) AS dashboards,
            (SELECT count(*)::int FROM groups WHERE company_id = $1) AS groups,
            (SELECT count(*)::int FROM api_keys WHERE company_id = $1) AS "apiKeys"`,
    [companyId],
  );
  return rows[0]!;
}

/** Takes a soft delete back: the client is listed again and its users can sign in. */
export async function restoreCompany(q: Queryable, companyId: number): Promise<boolean> {
  const { rowCount } = await q.query(
    'UPDATE companies SET deleted_at = NULL, updated_at = now() WHERE id = $1 AND deleted_at IS NOT NULL',
    [companyId],
  );
  return rowCount > 0;
}

/**
 * Purges one client deleted before `before` with everything it owns (every tenant table's foreign key
 * to companies cascades), oldest first; company 1 never. Returns its id, or null when none is due. One
 * per call: a client's data can be large, so the timer takes them one tick at a time.
 */
export async function purgeOneDeletedCompany(q: Queryable, before: Date): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `DELETE FROM companies WHERE id = (
       SELECT id FROM companies WHERE deleted_at < $1 AND id <> 1 ORDER BY deleted_at, id LIMIT 1
     ) RETURNING id::int AS id`,
    [before],
  );
  return rows[0]?.id ?? null;
}

export interface DeletedCompany {
  id: number;
  name: string;
  deletedAt: Date;
}

/** Deleted clients not yet purged, most recently deleted first (super admin). */
export async function listDeletedCompanies(q: Queryable): Promise<DeletedCompany[]> {
  const { rows } = await q.query<{ id: number; name: string; deleted_at: Date }>(
    'SELECT id::int AS id, name, deleted_at FROM companies WHERE deleted_at IS NOT NULL ORDER BY deleted_at DESC, id',
  );
  return rows.map((r) => ({ id: r.id, name: r.name, deletedAt: r.deleted_at }));
}

export interface SupportAccessRecord {
  mode: 'always' | 'consent';
  grantedUntil: Date | null;
  requestedAt: Date | null;
}

export async function findSupportAccess(
  q: Queryable,
  companyId: number,
): Promise<SupportAccessRecord | null> {
  const { rows } = await q.query<{ mode: 'always' | 'consent'; until: Date | null; requested: Date | null }>(
    `SELECT support_access AS mode, support_access_until AS until, support_access_requested_at AS requested
       FROM companies WHERE id = $1`,
    [companyId],
  );
  const row = rows[0];
  return row ? { mode: row.mode, grantedUntil: row.until, requestedAt: row.requested } : null;
}

/** Sets the mode and/or the grant's end (null ends a grant); an omitted key keeps its value. */
export async function setSupportAccess(
  q: Queryable,
  companyId: number,
  changes: { mode?: 'always' | 'consent'; grantedUntil?: Date | null },
): Promise<void> {
  await q.query(
    `UPDATE companies SET support_access = COALESCE($2, support_access),
            support_access_until = CASE WHEN $3 THEN $4::timestamptz ELSE support_access_until END,
            updated_at = now()
      WHERE id = $1`,
    [companyId, changes.mode ?? null, changes.grantedUntil !== undefined, changes.grantedUntil ?? null],
  );
}

/**
 * Support asks for access: the time is kept, and the client's main users and admins get a
 * `support_access_requested` system message (worded by the console; English text for other clients).
 */
export async function requestSupportAccess(
  q: Queryable,
  companyId: number,
  requester: { name: string },
): Promise<void> {
  await q.query(
    'UPDATE companies SET support_access_requested_at = now(), updated_at = now() WHERE id = $1',
    [companyId],
  );
  await q.query(
    `INSERT INTO messages (company_id, user_id, subject, body, level, kind, params)
     SELECT u.company_id, u.id, 'Support asks for access to your account',
            $2 || ' of the platform support asks to act as your company. A main user can grant access for a limited time in Settings.',
            4, 'support_access_requested', jsonb_build_object('requester', $2::text)
       FROM users u
      WHERE u.company_id = $1 AND u.deleted_at IS NULL
        AND (u.roles && ARRAY['ROLE_MAINUSER', 'ROLE_ADMIN']::text[])`,
    [companyId, requester.name],
  );
}
