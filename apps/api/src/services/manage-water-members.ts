/**
 * Changing a water association (spec sections 4, 7; issue #26). Each use case is one transaction and
 * answers the list the console shows afterwards, reloaded in the same transaction:
 * - PUT /nwa/{id}: the permit, water-year start, time zone, member visibility and the members' allowances
 *   (the association and its admins; 90050 otherwise). Answers the association.
 * - DELETE /nwa/{id}/members/{company_id}: unassign a member (managers), or leave (the member's own main
 *   user or admin). Its shares and allowances go with it, so it loses access at once. Answers the members.
 * - PUT /nwa/{id}/members/{company_id}/set_admin: make (or, with is_admin false, unmake) an admin member.
 * - GET /nwa/{id}/membership-requests, POST (accept) and DELETE (reject)
 *   /nwa/{id}/request-membership/{company_id}: answer the open requests.
 * - POST /nwa/{id}/membership-requests: a company's manager asks to join (not in the spec; issue #26).
 */

import type { UpdateNwa } from '@iot/contracts';
import {
  type Db,
  decideNwaRequest,
  deleteNwaMember,
  findNwaSettings,
  findPendingNwaRequest,
  insertNwaMember,
  insertNwaRequest,
  isNwaCompany,
  listNwaMembers,
  listPendingNwaRequests,
  type NwaRequestRecord,
  saveMemberAllowance,
  saveNwaSettings,
  setNwaMemberAdmin,
} from '@iot/db';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';
import {
  getWaterAssociation,
  nameMembers,
  nameRequests,
  type WaterAssociationDetails,
  type WaterMemberView,
  type WaterRequestView,
} from './read-water-associations';
import { actsAsSuperAdmin, inWaterScope, requireWaterManager, requireWaterRole } from './water-access';

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export async function updateWaterAssociation(
  db: Db,
  auth: AuthContext,
  nwaId: number,
  input: UpdateNwa,
): Promise<WaterAssociationDetails> {
  if (input.time_zone !== undefined && !validTimeZone(input.time_zone)) {
    throw apiError('INPUT_ERROR', { fields: { time_zone: { key: 'error.invalid' } } });
  }
  await inWaterScope(db, auth, async (tx) => {
    await requireWaterManager(tx, auth, nwaId);
    const current = await findNwaSettings(tx, nwaId);
    await saveNwaSettings(tx, {
      nwaId,
      maxFlowPerHour:
        input.max_flow_per_hour === undefined ? current.maxFlowPerHour : input.max_flow_per_hour,
      maxVolumePerYear:
        input.max_volume_per_year === undefined ? current.maxVolumePerYear : input.max_volume_per_year,
      waterYearStartMonth: input.water_year_start_month ?? current.waterYearStartMonth,
      timeZone: input.time_zone ?? current.timeZone,
      membersSeeSharedDevices: input.members_see_shared_devices ?? current.membersSeeSharedDevices,
      closeValvesAtLimit: input.close_valves_at_limit ?? current.closeValvesAtLimit,
    });
    if (input.allowances?.length) {
      const members = new Set((await listNwaMembers(tx, nwaId)).map((m) => m.companyId));
      const strangers = input.allowances.filter((a) => !members.has(a.company_id));
      if (strangers.length > 0)
        throw apiError('WATER_MEMBER_NOT_FOUND', { company_ids: strangers.map((a) => a.company_id) });
      for (const a of input.allowances) {
        await saveMemberAllowance(tx, nwaId, a.company_id, {
          perHour: a.allowance_per_hour,
          perYear: a.allowance_per_year,
        });
      }
    }
  });
  return getWaterAssociation(db, auth, nwaId);
}

/** A member leaving on its own: its main user or admin, never a plain user. */
function isOwnLeave(auth: AuthContext, companyId: number): boolean {
  return companyId === auth.companyId && !actsAsSuperAdmin(auth);
}

export async function unassignWaterMember(
  db: Db,
  auth: AuthContext,
  nwaId: number,
  companyId: number,
): Promise<WaterMemberView[]> {
  const members = await inWaterScope(db, auth, async (tx) => {
    if (isOwnLeave(auth, companyId)) {
      await requireWaterRole(tx, auth, nwaId);
      if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_WATER_ASSOCIATION');
    } else {
      await requireWaterManager(tx, auth, nwaId);
    }
    if (!(await deleteNwaMember(tx, nwaId, companyId))) throw apiError('WATER_MEMBER_NOT_FOUND');
    // After leaving, row-level security shows the former member nothing of the association.
    return isOwnLeave(auth, companyId) ? [] : listNwaMembers(tx, nwaId);
  });
  return nameMembers(db, members);
}

export async function setWaterMemberAdmin(
  db: Db,
  auth: AuthContext,
  nwaId: number,
  companyId: number,
  isAdmin: boolean,
): Promise<WaterMemberView[]> {
  const members = await inWaterScope(db, auth, async (tx) => {
    await requireWaterManager(tx, auth, nwaId);
    if (!(await setNwaMemberAdmin(tx, nwaId, companyId, isAdmin))) throw apiError('WATER_MEMBER_NOT_FOUND');
    return listNwaMembers(tx, nwaId);
  });
  return nameMembers(db, members);
}

export async function listWaterRequests(
  db: Db,
  auth: AuthContext,
  nwaId: number,
): Promise<WaterRequestView[]> {
  const requests = await inWaterScope(db, auth, async (tx) => {
    await requireWaterManager(tx, auth, nwaId);
    return listPendingNwaRequests(tx, nwaId);
  });
  return nameRequests(db, requests);
}

export async function decideWaterRequest(
  db: Db,
  auth: AuthContext,
  nwaId: number,
  companyId: number,
  decision: 'accepted' | 'rejected',
): Promise<WaterRequestView[]> {
  const requests = await inWaterScope(db, auth, async (tx) => {
    await requireWaterManager(tx, auth, nwaId);
    if (!(await decideNwaRequest(tx, nwaId, companyId, decision, auth.user.id))) {
      throw apiError('WATER_MEMBERSHIP_REQUEST_NOT_FOUND');
    }
    if (decision === 'accepted') await insertNwaMember(tx, nwaId, companyId);
    return listPendingNwaRequests(tx, nwaId);
  });
  return nameRequests(db, requests);
}

/**
 * The acting company asks to join: its main user or admin, to an existing association it is not
 * already in (or waiting for). The association's badge counts it until someone decides.
 */
export async function askToJoinWaterAssociation(
  db: Db,
  auth: AuthContext,
  nwaId: number,
): Promise<NwaRequestRecord> {
  if (!isManager(auth) || actsAsSuperAdmin(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_WATER_ASSOCIATION');
  if (nwaId === auth.companyId || !(await isNwaCompany(db, nwaId)))
    throw apiError('WATER_ASSOCIATION_NOT_FOUND');
  return inWaterScope(db, auth, async (tx) => {
    const member = (await listNwaMembers(tx, nwaId)).some((m) => m.companyId === auth.companyId);
    if (member || (await findPendingNwaRequest(tx, nwaId, auth.companyId))) {
      throw apiError('WATER_MEMBERSHIP_EXISTS');
    }
    return insertNwaRequest(tx, nwaId, auth.companyId, auth.user.id);
  });
}
