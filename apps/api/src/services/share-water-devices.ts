/**
 * Devices a member shares with its water association (issue #26). The owning company's main user or
 * admin shares one of its devices with an association it belongs to, read-only or with control, and takes
 * it back; the association and its admins edit which member the meter counts against, its unit and meter
 * factor. What another company sees of a shared device is decided by row-level security (the share
 * policies of migration 0031), never by a query that reads past it.
 */
import {
  companyCards,
  type Db,
  deleteDeviceShare,
  findSharedDevice,
  listDeviceShares,
  listNwaMembers,
  listSharedDevices,
  ownedDeviceIds,
  type SharedDeviceRecord,
  updateSharedDeviceUsage,
  upsertDeviceShare,
} from '@iot/db';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';
import { actsAsSuperAdmin, inWaterScope, requireWaterManager, requireWaterRole } from './water-access';

export interface SharedDeviceView extends SharedDeviceRecord {
  ownerName: string;
}

async function nameOwners(db: Db, shares: SharedDeviceRecord[]): Promise<SharedDeviceView[]> {
  const cards = await companyCards(db, [...new Set(shares.map((s) => s.ownerCompanyId))]);
  return shares.map((s) => ({
    ...s,
    ownerName: cards.get(s.ownerCompanyId)?.name ?? `#${s.ownerCompanyId}`,
  }));
}

export async function listWaterSharedDevices(
  db: Db,
  auth: AuthContext,
  nwaId: number,
): Promise<SharedDeviceView[]> {
  const shares = await inWaterScope(db, auth, async (tx) => {
    await requireWaterRole(tx, auth, nwaId);
    return listSharedDevices(tx, nwaId);
  });
  return nameOwners(db, shares);
}

/** The owner's main user or admin, in a company that is a member of the association (not the super admin). */
function requireSharer(auth: AuthContext): void {
  if (!isManager(auth) || actsAsSuperAdmin(auth)) throw apiError('NO_PERMISSION_TO_SHARE_DEVICES');
}

export async function shareWaterDevice(
  db: Db,
  auth: AuthContext,
  nwaId: number,
  deviceId: number,
  access: 'read' | 'control',
): Promise<SharedDeviceView[]> {
  requireSharer(auth);
  const shares = await inWaterScope(db, auth, async (tx) => {
    const role = await requireWaterRole(tx, auth, nwaId);
    // The association's own devices need no share: it sees them as their owner.
    if (role !== 'member' && role !== 'admin') throw apiError('WATER_MEMBER_NOT_FOUND');
    if ((await ownedDeviceIds(tx, auth.companyId, [deviceId])).length === 0)
      throw apiError('DEVICE_NOT_FOUND');
    await upsertDeviceShare(tx, { nwaId, ownerId: auth.companyId, deviceId, access, userId: auth.user.id });
    return listSharedDevices(tx, nwaId);
  });
  return nameOwners(db, shares);
}

export async function unshareWaterDevice(
  db: Db,
  auth: AuthContext,
  nwaId: number,
  deviceId: number,
): Promise<SharedDeviceView[]> {
  requireSharer(auth);
  const shares = await inWaterScope(db, auth, async (tx) => {
    await requireWaterRole(tx, auth, nwaId);
    if (!(await deleteDeviceShare(tx, nwaId, auth.companyId, deviceId)))
      throw apiError('SHARED_DEVICE_NOT_FOUND');
    return listSharedDevices(tx, nwaId);
  });
  return nameOwners(db, shares);
}

export interface SharedDeviceUsageInput {
  counts_against_company_id?: number | null;
  unit?: 'm3' | 'l';
  meter_factor?: number;
  data_field?: string;
}

export async function updateWaterSharedDevice(
  db: Db,
  auth: AuthContext,
  nwaId: number,
  deviceId: number,
  input: SharedDeviceUsageInput,
): Promise<SharedDeviceView> {
  const share = await inWaterScope(db, auth, async (tx) => {
    await requireWaterManager(tx, auth, nwaId);
    const current = await findSharedDevice(tx, nwaId, deviceId);
    if (!current) throw apiError('SHARED_DEVICE_NOT_FOUND');
    const countsAgainst =
      input.counts_against_company_id === undefined
        ? current.countsAgainstCompanyId
        : input.counts_against_company_id;
    if (
      countsAgainst !== null &&
      !(await listNwaMembers(tx, nwaId)).some((m) => m.companyId === countsAgainst)
    ) {
      throw apiError('WATER_MEMBER_NOT_FOUND');
    }
    await updateSharedDeviceUsage(tx, nwaId, deviceId, {
      countsAgainstCompanyId: countsAgainst,
      unit: input.unit ?? current.unit,
      meterFactor: input.meter_factor ?? current.meterFactor,
      dataField: input.data_field ?? current.dataField,
    });
    return (await findSharedDevice(tx, nwaId, deviceId))!;
  });
  return (await nameOwners(db, [share]))[0]!;
}

/** The device drawer's "share with an NWA": the associations one of the company's devices is shared with. */
export async function listOwnDeviceShares(
  db: Db,
  auth: AuthContext,
  deviceId: number,
): Promise<SharedDeviceView[]> {
  const shares = await inWaterScope(db, auth, async (tx) => {
    if ((await ownedDeviceIds(tx, auth.companyId, [deviceId])).length === 0)
      throw apiError('DEVICE_NOT_FOUND');
    return listDeviceShares(tx, auth.companyId, deviceId);
  });
  return nameOwners(db, shares);
}
