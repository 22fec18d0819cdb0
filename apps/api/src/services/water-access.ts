/**
 * Who may do what in a water association (spec sections 2, 6; issue #26), asked once per use case:
 * - the association itself (companies.is_nwa) and its admin members manage members, requests, the permit
 *   and the shared devices' usage; their ROLE_ADMIN and ROLE_MAINUSER users do, plain users read;
 * - a plain member reads the association, its own membership and figures, and the shared devices only
 *   where the association lets members see them;
 * - the super admin (company 1, not impersonating) reads and manages every association;
 * - anyone else gets 90051, as if the association did not exist.
 * Each use case runs in one transaction: withTenant as the acting company (row-level security shows the
 * role's rows, migration 0031), or, for the super admin, the platform connection.
 */
import { type Db, findNwaRole, isNwaCompany, type NwaRole, type Queryable, withTenant } from '@iot/db';
import { SUPER_ADMIN_COMPANY_ID } from '@iot/domain';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export type WaterRole = NwaRole | 'super_admin';

export function actsAsSuperAdmin(auth: AuthContext): boolean {
  return auth.companyId === SUPER_ADMIN_COMPANY_ID && !auth.impersonated;
}

/** One transaction as the acting company (or the platform, for the super admin). */
export function inWaterScope<T>(db: Db, auth: AuthContext, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  if (actsAsSuperAdmin(auth)) return db.transaction(fn);
  return withTenant(db, auth.companyId, fn);
}

/** The caller's role towards association `nwaId`, or 90051 when it has none (or `nwaId` is no NWA). */
export async function requireWaterRole(tx: Queryable, auth: AuthContext, nwaId: number): Promise<WaterRole> {
  if (actsAsSuperAdmin(auth)) {
    if (await isNwaCompany(tx, nwaId)) return 'super_admin';
    throw apiError('WATER_ASSOCIATION_NOT_FOUND');
  }
  const role = await findNwaRole(tx, nwaId);
  if (role === 'association' && !(await isNwaCompany(tx, nwaId)))
    throw apiError('WATER_ASSOCIATION_NOT_FOUND');
  if (!role) throw apiError('WATER_ASSOCIATION_NOT_FOUND');
  return role;
}

/** Whether the role manages the association (members, requests, permit, usage settings). */
export function managesAssociation(role: WaterRole): boolean {
  return role === 'association' || role === 'admin' || role === 'super_admin';
}

/** 90050 unless the caller's company manages the association and the user holds a manager role. */
export async function requireWaterManager(
  tx: Queryable,
  auth: AuthContext,
  nwaId: number,
): Promise<WaterRole> {
  const role = await requireWaterRole(tx, auth, nwaId);
  if (!managesAssociation(role) || !isManager(auth))
    throw apiError('NO_PERMISSION_TO_MANAGE_WATER_ASSOCIATION');
  return role;
}
