/**
 * The super admin's client management (spec sections 1, 6; issue #27): block, license modules, edit base
 * data, limits, soft delete. A blocked or deleted client's sessions answer 75 from the next request on
 * (the session plugin checks the company on each), and its users cannot sign in; unblocking restores both.
 */
import type { Db } from '@iot/db';
import {
  type ClientChanges,
  type ClientLimitKey,
  type CompanyBaseData,
  findCompany,
  recordAuditEvent,
  setClientLimits,
  softDeleteCompany,
  updateClient,
  updateCompanyBaseData,
} from '@iot/db';
import { SUPER_ADMIN_COMPANY_ID } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';
import { checkClientBaseData } from './create-client';

function refuseSuperAdminCompany(companyId: number): void {
  // Blocking or deleting company 1 would lock every super admin out.
  if (companyId === SUPER_ADMIN_COMPANY_ID)
    throw apiError('BAD_REQUEST', { reason: 'the super admin company cannot be changed here' });
}

export async function changeClient(
  db: Db,
  auth: AuthContext,
  companyId: number,
  changes: ClientChanges,
  baseData: CompanyBaseData = {},
  limits: Partial<Record<ClientLimitKey, number | null>> = {},
) {
  refuseSuperAdminCompany(companyId);
  const current = await findCompany(db, companyId);
  if (!current || current.deletedAt) throw apiError('COMPANY_NOT_FOUND');
  if (Object.keys(baseData).length > 0) {
    await checkClientBaseData(
      db,
      {
        ...baseData,
        countryId: baseData.countryId === undefined ? current.countryId : baseData.countryId,
        stateId: baseData.stateId === undefined ? current.stateId : baseData.stateId,
        districtId: baseData.districtId === undefined ? current.districtId : baseData.districtId,
      },
      true,
    );
  }
  return db.transaction(async (tx) => {
    if (Object.keys(baseData).length > 0) await updateCompanyBaseData(tx, companyId, baseData);
    if (Object.keys(limits).length > 0) await setClientLimits(tx, companyId, limits);
    const company = await updateClient(tx, companyId, changes);
    if (!company) throw apiError('COMPANY_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId,
      userId: auth.user.id,
      action: 'client.update',
      details: {
        ...changes,
        ...(Object.keys(baseData).length > 0 ? { fields: Object.keys(baseData) } : {}),
        ...(Object.keys(limits).length > 0 ? { limits } : {}),
        by_company_id: auth.realCompanyId,
      },
    });
    return company;
  });
}

export async function deleteClient(db: Db, auth: AuthContext, companyId: number): Promise<void> {
  refuseSuperAdminCompany(companyId);
  await db.transaction(async (tx) => {
    if (!(await softDeleteCompany(tx, companyId))) throw apiError('COMPANY_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId,
      userId: auth.user.id,
      action: 'client.delete',
      details: { by_company_id: auth.realCompanyId },
    });
  });
}
