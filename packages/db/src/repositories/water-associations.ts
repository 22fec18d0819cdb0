/**
 * Water associations (NWA, migration 0004 and 0036): memberships, membership requests, the permit and
 * the members' allowances. Calls run inside withTenant as the acting company, so row-level security
 * shows each company what its role in the association allows (app_nwa_role); `companyCards` and
 * `listNwaDirectory` are platform reads the services call only after they authorized the caller.
 */
import type { Queryable } from '../db';

export type NwaRole = 'association' | 'admin' | 'member';

export interface NwaSettingsRecord {
  nwaId: number;
  maxFlowPerHour: number | null;
  maxVolumePerYear: number | null;
  waterYearStartMonth: number;
  timeZone: string;
  membersSeeSharedDevices: boolean;
  /** At 100 % of a member's yearly allowance, close its valves shared with control (migration 0038). */
  closeValvesAtLimit: boolean;
}

export interface NwaMemberRecord {
  nwaId: number;
  companyId: number;
  isAdmin: boolean;
  joinedAt: Date;
  allowancePerHour: number | null;
  allowancePerYear: number | null;
}

export interface NwaRequestRecord {
  id: number;
  nwaId: number;
  companyId: number;
  state: 'pending' | 'accepted' | 'rejected';
  requestedBy: number | null;
  createdAt: Date;
}

export interface CompanyCard {
  id: number;
  name: string;
  city: string | null;
}

/** The acting company's role towards `nwaId`, or null (see app_nwa_role). */
export async function findNwaRole(q: Queryable, nwaId: number): Promise<NwaRole | null> {
  const { rows } = await q.query<{ role: NwaRole | null }>('SELECT app_nwa_role($1) AS role', [nwaId]);
  return rows[0]?.role ?? null;
}

/** Platform read: whether `companyId` is a water association (companies.is_nwa). */
export async function isNwaCompany(q: Queryable, companyId: number): Promise<boolean> {
  const { rows } = await q.query('SELECT 1 FROM companies WHERE id = $1 AND is_nwa', [companyId]);
  return rows.length > 0;
}

/** The associations `companyId` is (when is_nwa) or belongs to, with its role in each. */
export async function listNwaRolesOf(
  q: Queryable,
  companyId: number,
): Promise<{ nwaId: number; role: NwaRole }[]> {
  const { rows } = await q.query<{ nwa_id: number; role: NwaRole }>(
    `SELECT id::int AS nwa_id, 'association' AS role FROM companies WHERE id = $1 AND is_nwa
     UNION ALL
     SELECT nwa_company_id::int, CASE WHEN is_admin THEN 'admin' ELSE 'member' END
       FROM nwa_members WHERE company_id = $1
     ORDER BY 1`,
    [companyId],
  );
  return rows.map((r) => ({ nwaId: r.nwa_id, role: r.role }));
}

const SETTINGS_COLUMNS = `nwa_company_id::int AS nwa_id, max_flow_per_hour, max_volume_per_year,
  water_year_start_month::int AS water_year_start_month, time_zone, members_see_shared_devices,
  close_valves_at_limit`;

interface SettingsRow {
  nwa_id: number;
  max_flow_per_hour: number | null;
  max_volume_per_year: number | null;
  water_year_start_month: number;
  time_zone: string;
  members_see_shared_devices: boolean;
  close_valves_at_limit: boolean;
}

function toSettings(nwaId: number, r: SettingsRow | undefined): NwaSettingsRecord {
  return {
    nwaId,
    maxFlowPerHour: r?.max_flow_per_hour ?? null,
    maxVolumePerYear: r?.max_volume_per_year ?? null,
    waterYearStartMonth: r?.water_year_start_month ?? 1,
    timeZone: r?.time_zone ?? 'Europe/Berlin',
    membersSeeSharedDevices: r?.members_see_shared_devices ?? false,
    closeValvesAtLimit: r?.close_valves_at_limit ?? false,
  };
}

/** The permit and settings; the defaults while the association never saved any. */
export async function findNwaSettings(q: Queryable, nwaId: number): Promise<NwaSettingsRecord> {
  const { rows } = await q.query<SettingsRow>(
    `SELECT ${SETTINGS_COLUMNS} FROM nwa_settings WHERE nwa_company_id = $1`,
    [nwaId],
  );
  return toSettings(nwaId, rows[0]);
}

export async function saveNwaSettings(
  q: Queryable,
  s: Omit<NwaSettingsRecord, 'nwaId'> & { nwaId: number },
): Promise<void> {
  await q.query(
    `INSERT INTO nwa_settings (nwa_company_id, max_flow_per_hour, max_volume_per_year, water_year_start_month,
                               time_zone, members_see_shared_devices, close_valves_at_limit)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (nwa_company_id) DO UPDATE SET
       max_flow_per_hour = EXCLUDED.max_flow_per_hour, max_volume_per_year = EXCLUDED.max_volume_per_year,
       water_year_start_month = EXCLUDED.water_year_start_month, time_zone = EXCLUDED.time_zone,
       members_see_shared_devices = EXCLUDED.members_see_shared_devices,
       close_valves_at_limit = EXCLUDED.close_valves_at_limit, updated_at = now()`,
    [
      s.nwaId,
      s.maxFlowPerHour,
      s.maxVolumePerYear,
      s.waterYearStartMonth,
      s.timeZone,
      s.membersSeeSharedDevices,
      s.closeValvesAtLimit,
    ],
  );
}

/**
 * The members row-level security shows the acting company (all of them to the association and its
 * admins, the own row to a plain member), each with its allowance valid today (nwa_max_flow_rates,
 * member-wide rows, the latest valid_from).
 */
export async function listNwaMembers(q: Queryable, nwaId: number): Promise<NwaMemberRecord[]> {
  const { rows } = await q.query<{
    company_id: number;
    is_admin: boolean;
    created_at: Date;
    max_per_hour: number | null;
    max_per_year: number | null;
  }>(
    `SELECT m.company_id::int AS company_id, m.is_admin, m.created_at, a.max_per_hour, a.max_per_year
       FROM nwa_members m
       LEFT JOIN LATERAL (
         SELECT r.max_per_hour, r.max_per_year FROM nwa_max_flow_rates r
          WHERE r.nwa_company_id = m.nwa_company_id AND r.company_id = m.company_id
            AND r.device_id IS NULL AND r.valid_from <= CURRENT_DATE
          ORDER BY r.valid_from DESC LIMIT 1) a ON true
      WHERE m.nwa_company_id = $1
      ORDER BY m.created_at, m.company_id`,
    [nwaId],
  );
  return rows.map((r) => ({
    nwaId,
    companyId: r.company_id,
    isAdmin: r.is_admin,
    joinedAt: new Date(r.created_at),
    allowancePerHour: r.max_per_hour,
    allowancePerYear: r.max_per_year,
  }));
}

/** A member's allowance from today on (replaces today's row if one was saved earlier today). */
export async function saveMemberAllowance(
  q: Queryable,
  nwaId: number,
  companyId: number,
  allowance: { perHour: number | null; perYear: number | null },
): Promise<void> {
  await q.query(
    `INSERT INTO nwa_max_flow_rates (nwa_company_id, company_id, device_id, max_per_hour, max_per_year)
     VALUES ($1, $2, NULL, $3, $4)
     ON CONFLICT (nwa_company_id, company_id, COALESCE(device_id, 0), valid_from)
     DO UPDATE SET max_per_hour = EXCLUDED.max_per_hour, max_per_year = EXCLUDED.max_per_year, updated_at = now()`,
    [nwaId, companyId, allowance.perHour, allowance.perYear],
  );
}

export async function insertNwaMember(q: Queryable, nwaId: number, companyId: number): Promise<void> {
  await q.query(
    `INSERT INTO nwa_members (nwa_company_id, company_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    [nwaId, companyId],
  );
}

/** Removes a member; its shares and allowances go with it (foreign keys ON DELETE CASCADE). */
export async function deleteNwaMember(q: Queryable, nwaId: number, companyId: number): Promise<boolean> {
  const { rows } = await q.query(
    'DELETE FROM nwa_members WHERE nwa_company_id = $1 AND company_id = $2 RETURNING company_id',
    [nwaId, companyId],
  );
  return rows.length > 0;
}

export async function setNwaMemberAdmin(
  q: Queryable,
  nwaId: number,
  companyId: number,
  isAdmin: boolean,
): Promise<boolean> {
  const { rows } = await q.query(
    'UPDATE nwa_members SET is_admin = $3 WHERE nwa_company_id = $1 AND company_id = $2 RETURNING company_id',
    [nwaId, companyId, isAdmin],
  );
  return rows.length > 0;
}

const REQUEST_COLUMNS = `id::int AS id, nwa_company_id::int AS nwa_id, company_id::int AS company_id, state,
  requested_by::int AS requested_by, created_at`;

interface RequestRow {
  id: number;
  nwa_id: number;
  company_id: number;
  state: NwaRequestRecord['state'];
  requested_by: number | null;
  created_at: Date;
}

function toRequest(r: RequestRow): NwaRequestRecord {
  return {
    id: r.id,
    nwaId: r.nwa_id,
    companyId: r.company_id,
    state: r.state,
    requestedBy: r.requested_by,
    createdAt: new Date(r.created_at),
  };
}

export async function listPendingNwaRequests(q: Queryable, nwaId: number): Promise<NwaRequestRecord[]> {
  const { rows } = await q.query<RequestRow>(
    `SELECT ${REQUEST_COLUMNS} FROM nwa_membership_requests
      WHERE nwa_company_id = $1 AND state = 'pending' ORDER BY created_at, id`,
    [nwaId],
  );
  return rows.map(toRequest);
}

export interface NwaCounts {
  members: number;
  openRequests: number;
  sharedDevices: number;
}

/** Platform read: members, open requests and shared devices per association (overview and badge). */
export async function countNwaFigures(q: Queryable, nwaIds: number[]): Promise<Map<number, NwaCounts>> {
  const { rows } = await q.query<{ id: number; members: number; requests: number; devices: number }>(
    `SELECT n.id::int AS id,
            (SELECT count(*) FROM nwa_members m WHERE m.nwa_company_id = n.id)::int AS members,
            (SELECT count(*) FROM nwa_membership_requests r
              WHERE r.nwa_company_id = n.id AND r.state = 'pending')::int AS requests,
            (SELECT count(*) FROM nwa_shared_devices s WHERE s.nwa_company_id = n.id)::int AS devices
       FROM unnest($1::bigint[]) AS n(id)`,
    [nwaIds],
  );
  return new Map(
    rows.map((r) => [r.id, { members: r.members, openRequests: r.requests, sharedDevices: r.devices }]),
  );
}

/** The associations `companyId` has an open request with. */
export async function listPendingNwaIdsOf(q: Queryable, companyId: number): Promise<number[]> {
  const { rows } = await q.query<{ nwa_id: number }>(
    `SELECT nwa_company_id::int AS nwa_id FROM nwa_membership_requests WHERE company_id = $1 AND state = 'pending'`,
    [companyId],
  );
  return rows.map((r) => r.nwa_id);
}

/** The company's own pending request to `nwaId`, if any. */
export async function findPendingNwaRequest(
  q: Queryable,
  nwaId: number,
  companyId: number,
): Promise<NwaRequestRecord | null> {
  const { rows } = await q.query<RequestRow>(
    `SELECT ${REQUEST_COLUMNS} FROM nwa_membership_requests
      WHERE nwa_company_id = $1 AND company_id = $2 AND state = 'pending'`,
    [nwaId, companyId],
  );
  return rows[0] ? toRequest(rows[0]) : null;
}

export async function insertNwaRequest(
  q: Queryable,
  nwaId: number,
  companyId: number,
  userId: number,
): Promise<NwaRequestRecord> {
  const { rows } = await q.query<RequestRow>(
    `INSERT INTO nwa_membership_requests (nwa_company_id, company_id, requested_by) VALUES ($1, $2, $3)
     RETURNING ${REQUEST_COLUMNS}`,
    [nwaId, companyId, userId],
  );
  return toRequest(rows[0]!);
}

/** Moves the pending request of `companyId` to accepted or rejected; false when none was pending. */
export async function decideNwaRequest(
  q: Queryable,
  nwaId: number,
  companyId: number,
  state: 'accepted' | 'rejected',
  userId: number,
): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE nwa_membership_requests SET state = $3, decided_by = $4, decided_at = now()
      WHERE nwa_company_id = $1 AND company_id = $2 AND state = 'pending' RETURNING id`,
    [nwaId, companyId, state, userId],
  );
  return rows.length > 0;
}

/** Platform read: name and city of the given companies (members, requesters, associations). */
export async function companyCards(q: Queryable, ids: number[]): Promise<Map<number, CompanyCard>> {
  if (ids.length === 0) return new Map();
  const { rows } = await q.query<CompanyCard>(
    'SELECT id::int AS id, name, city FROM companies WHERE id = ANY($1::bigint[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Platform read: every water association a company could ask to join (not blocked, not deleted). */
export async function listNwaDirectory(q: Queryable): Promise<CompanyCard[]> {
  const { rows } = await q.query<CompanyCard>(
    `SELECT id::int AS id, name, city FROM companies WHERE is_nwa AND NOT blocked AND deleted_at IS NULL ORDER BY name, id`,
  );
  return rows;
}

/** Platform read for the super admin's overview: every association. */
export async function listAllNwaIds(q: Queryable): Promise<number[]> {
  const { rows } = await q.query<{ id: number }>(
    'SELECT id::int AS id FROM companies WHERE is_nwa ORDER BY name, id',
  );
  return rows.map((r) => r.id);
}
