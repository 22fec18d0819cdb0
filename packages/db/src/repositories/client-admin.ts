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
