/**
 * Water usage warnings (issue #26; migrations 0031, 0038): the rules worker's timer claims each warning
 * once per member, kind and period, writes the system messages and hands the email, SMS and valve jobs to
 * the notifier, which reads here what each job sends. Platform reads and writes: the timer acts for the
 * association, no tenant is signed in.
 */
import type { Queryable } from '../db';

export interface UsageWarningClaim {
  nwaId: number;
  companyId: number;
  kind: 'year_80' | 'year_100' | 'hour_cap';
  periodStart: Date;
  value: number;
}

/** Records a usage warning; its id, or null when this one was sent already (once per member, kind, period). */
export async function claimUsageWarning(q: Queryable, w: UsageWarningClaim): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO nwa_usage_warnings (nwa_company_id, company_id, kind, period_start, value)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id::int AS id`,
    [w.nwaId, w.companyId, w.kind, w.periodStart, w.value],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/**
 * A usage warning as a system message for everyone of `companyId` (migration 0023's kind and params: the
 * console words it in the reader's language; subject and body are the English text for other clients).
 */
export async function insertWaterWarningMessage(
  q: Queryable,
  companyId: number,
  m: { kind: string; subject: string; body: string; params: Record<string, unknown> },
): Promise<void> {
  await q.query(
    `INSERT INTO messages (company_id, subject, body, level, kind, params) VALUES ($1, $2, $3, 4, $4, $5)`,
    [companyId, m.subject, m.body, m.kind, JSON.stringify(m.params)],
  );
}

export interface WarningRecipient {
  userId: number;
  companyId: number;
  email: string;
  phone: string | null;
  locale: string;
}

const RECIPIENT_COLUMNS = `id::int AS user_id, company_id::int AS company_id, email, phone, locale`;
const MANAGERS = `deleted_at IS NULL AND roles && ARRAY['ROLE_MAINUSER', 'ROLE_ADMIN']::text[]`;

interface RecipientRow {
  user_id: number;
  company_id: number;
  email: string;
  phone: string | null;
  locale: string;
}

const toRecipient = (r: RecipientRow): WarningRecipient => ({
  userId: r.user_id,
  companyId: r.company_id,
  email: r.email,
  phone: r.phone,
  locale: r.locale,
});

/** The main users and admins of these companies: who a warning is mailed and texted to. */
export async function listWarningRecipients(q: Queryable, companyIds: number[]): Promise<WarningRecipient[]> {
  const { rows } = await q.query<RecipientRow>(
    `SELECT ${RECIPIENT_COLUMNS} FROM users WHERE company_id = ANY($1::bigint[]) AND ${MANAGERS} ORDER BY id`,
    [companyIds],
  );
  return rows.map(toRecipient);
}

/** One recipient again (the notifier's job), if it is still a main user or admin of that company. */
export async function findWarningRecipient(
  q: Queryable,
  userId: number,
  companyId: number,
): Promise<WarningRecipient | null> {
  const { rows } = await q.query<RecipientRow>(
    `SELECT ${RECIPIENT_COLUMNS} FROM users WHERE id = $1 AND company_id = $2 AND ${MANAGERS}`,
    [userId, companyId],
  );
  return rows[0] ? toRecipient(rows[0]) : null;
}

export interface WaterValve {
  deviceId: number;
  ownerCompanyId: number;
  /** The valve numbers the device reports (valve_1..valve_4); [1] when it reports none yet. */
  valves: number[];
}

/**
 * The member's valves the association may close: devices shared with it with control that count against
 * the member, still shared while the member belongs to the association.
 */
export async function listControlValves(
  q: Queryable,
  nwaId: number,
  memberId: number,
): Promise<WaterValve[]> {
  const { rows } = await q.query<{ device_id: number; owner_id: number; valves: number[] | null }>(
    `SELECT s.device_id::int AS device_id, s.company_id::int AS owner_id,
            (SELECT array_agg(substr(k, 7)::int ORDER BY k) FROM jsonb_object_keys(c.data) k
              WHERE k ~ '^valve_[1-4]$') AS valves
       FROM nwa_shared_devices s
       LEFT JOIN device_current c ON c.device_id = s.device_id AND c.company_id = s.company_id
      WHERE s.nwa_company_id = $1 AND s.counts_against_company_id = $2 AND s.access = 'control'
      ORDER BY s.device_id`,
    [nwaId, memberId],
  );
  return rows.map((r) => ({
    deviceId: r.device_id,
    ownerCompanyId: r.owner_id,
    valves: r.valves?.length ? r.valves.map(Number) : [1],
  }));
}

export interface WaterWarningRecord {
  id: number;
  nwaId: number;
  nwaName: string;
  companyId: number;
  memberName: string;
  kind: 'year_80' | 'year_100' | 'hour_cap';
  periodStart: Date;
  value: number;
  createdAt: Date;
  timeZone: string;
  closeValvesAtLimit: boolean;
}

/** A claimed warning with the names its texts need. */
export async function findWaterWarning(q: Queryable, id: number): Promise<WaterWarningRecord | null> {
  const { rows } = await q.query<{
    id: number;
    nwa_id: number;
    nwa_name: string;
    company_id: number;
    member_name: string;
    kind: WaterWarningRecord['kind'];
    period_start: Date;
    value: number;
    created_at: Date;
    time_zone: string | null;
    close_valves_at_limit: boolean | null;
  }>(
    `SELECT w.id::int AS id, w.nwa_company_id::int AS nwa_id, n.name AS nwa_name, w.company_id::int AS company_id,
            m.name AS member_name, w.kind, w.period_start, w.value, w.created_at, s.time_zone,
            s.close_valves_at_limit
       FROM nwa_usage_warnings w
       JOIN companies n ON n.id = w.nwa_company_id
       JOIN companies m ON m.id = w.company_id
       LEFT JOIN nwa_settings s ON s.nwa_company_id = w.nwa_company_id
      WHERE w.id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    nwaId: r.nwa_id,
    nwaName: r.nwa_name,
    companyId: r.company_id,
    memberName: r.member_name,
    kind: r.kind,
    periodStart: new Date(r.period_start),
    value: Number(r.value),
    createdAt: new Date(r.created_at),
    timeZone: r.time_zone ?? 'Europe/Berlin',
    closeValvesAtLimit: r.close_valves_at_limit ?? false,
  };
}
