/**
 * Reading water associations (spec section 7: GET /nwa, GET /nwa/{id}; issue #26). The list holds the
 * associations the acting company is or belongs to (every association for the super admin). A company
 * with neither the water_association module nor a relationship gets 27 (the spec's route guard). A plain
 * member sees only its own member row; names and counts are read after the role check.
 */
import {
  type CompanyCard,
  companyCards,
  countNwaFigures,
  type Db,
  findNwaSettings,
  listAllNwaIds,
  listNwaDirectory,
  listNwaMembers,
  listNwaRolesOf,
  listPendingNwaIdsOf,
  type NwaCounts,
  type NwaMemberRecord,
  type NwaRequestRecord,
  type NwaSettingsRecord,
} from '@iot/db';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';
import {
  actsAsSuperAdmin,
  inWaterScope,
  managesAssociation,
  requireWaterRole,
  type WaterRole,
} from './water-access';

export interface WaterAssociationSummary {
  card: CompanyCard;
  role: WaterRole;
  isAdmin: boolean;
  counts: NwaCounts;
}

export interface WaterMemberView extends NwaMemberRecord {
  card: CompanyCard;
}

export interface WaterAssociationDetails extends WaterAssociationSummary {
  settings: NwaSettingsRecord;
  members: WaterMemberView[];
}

const NO_COUNTS: NwaCounts = { members: 0, openRequests: 0, sharedDevices: 0 };

function unknownCard(id: number): CompanyCard {
  return { id, name: `#${id}`, city: null };
}

async function summaries(
  db: Db,
  auth: AuthContext,
  roles: { nwaId: number; role: WaterRole }[],
): Promise<WaterAssociationSummary[]> {
  const ids = roles.map((r) => r.nwaId);
  const [cards, counts] = await Promise.all([companyCards(db, ids), countNwaFigures(db, ids)]);
  return roles.map(({ nwaId, role }) => {
    const manages = managesAssociation(role);
    const c = counts.get(nwaId) ?? NO_COUNTS;
    return {
      card: cards.get(nwaId) ?? unknownCard(nwaId),
      role,
      isAdmin: manages,
      // Only those who decide requests see how many are open (the menu badge).
      counts: { ...c, openRequests: manages && isManager(auth) ? c.openRequests : 0 },
    };
  });
}

export async function listWaterAssociations(db: Db, auth: AuthContext): Promise<WaterAssociationSummary[]> {
  try {
    const roles: { nwaId: number; role: WaterRole }[] = actsAsSuperAdmin(auth)
      ? (await listAllNwaIds(db)).map((nwaId) => ({ nwaId, role: 'super_admin' as const }))
      : await inWaterScope(db, auth, (tx) => listNwaRolesOf(tx, auth.companyId));
    // No module and no relation: an empty list, not 27. The console's menu asks every company (a member
    // needs no licence of its own), and a signed-in start makes no failing call (issue #30).
    return await summaries(db, auth, roles);
  } catch {
    // Spec section 8: 60011, water association listing failed.
    throw apiError('WATER_ASSOCIATION_LIST_FAILED');
  }
}

/**
 * Names for members read in the caller's transaction. Called after that transaction: on PGlite a
 * statement outside an open transaction waits for it to end.
 */
export async function nameMembers(db: Db, members: NwaMemberRecord[]): Promise<WaterMemberView[]> {
  const cards = await companyCards(
    db,
    members.map((m) => m.companyId),
  );
  return members.map((m) => ({ ...m, card: cards.get(m.companyId) ?? unknownCard(m.companyId) }));
}

export async function getWaterAssociation(
  db: Db,
  auth: AuthContext,
  nwaId: number,
): Promise<WaterAssociationDetails> {
  const { role, settings, members } = await inWaterScope(db, auth, async (tx) => {
    const role = await requireWaterRole(tx, auth, nwaId);
    return { role, settings: await findNwaSettings(tx, nwaId), members: await listNwaMembers(tx, nwaId) };
  });
  const [summary] = await summaries(db, auth, [{ nwaId, role }]);
  return { ...summary!, settings, members: await nameMembers(db, members) };
}

export interface WaterRequestView {
  id: number;
  nwaId: number;
  companyId: number;
  state: 'pending' | 'accepted' | 'rejected';
  createdAt: Date;
  card: CompanyCard;
}

/** Names for requests read in the caller's transaction (called after it, see nameMembers). */
export async function nameRequests(db: Db, requests: NwaRequestRecord[]): Promise<WaterRequestView[]> {
  const cards = await companyCards(
    db,
    requests.map((r) => r.companyId),
  );
  return requests.map((r) => ({ ...r, card: cards.get(r.companyId) ?? unknownCard(r.companyId) }));
}

/** Every association a company could ask to join, with the caller's relation to each. */
export async function listWaterDirectory(db: Db, auth: AuthContext) {
  const [all, mine, pending] = await Promise.all([
    listNwaDirectory(db),
    inWaterScope(db, auth, (tx) => listNwaRolesOf(tx, auth.companyId)),
    inWaterScope(db, auth, (tx) => listPendingNwaIdsOf(tx, auth.companyId)),
  ]);
  const roles = new Map(mine.map((m) => [m.nwaId, m.role]));
  const open = new Set(pending);
  return all.map((card) => ({ card, role: roles.get(card.id) ?? null, requestPending: open.has(card.id) }));
}
