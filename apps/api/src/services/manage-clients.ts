/**
 * The super admin's client management (spec sections 1, 6; issue #27): block, license modules, edit base
 * data, limits, soft delete. Blocking or deleting a client deletes its users' sessions in the same
 * transaction (the session plugin's check of the company on each request stays as a second wall), its
 * users cannot sign in (75), ingest refuses its uplinks and the rules worker skips it; unblocking
 * restores all but the ended sessions.
 */
import type { Db } from '@iot/db';
import {
  type ClientChanges,
  type ClientLimitKey,
  type CompanyBaseData,
  deleteCompanySessions,
  findCompany,
  previewCompanyPurge,
  recordAuditEvent,
  restoreCompany,
  setClientLimits,
  softDeleteCompany,
  updateClient,
  updateCompanyBaseData,
} from '@iot/db';
import { SUPER_ADMIN_COMPANY_ID } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';
import { checkRetention } from './check-retention';
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
  const cap = limits.max_data_retention_days;
  checkRetention(current, baseData, cap === undefined ? current.dataRetentionCap : cap);
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
    // Blocking ends the client's sessions in the same transaction: none outlives the block.
    const endedSessions = changes.blocked === true ? await deleteCompanySessions(tx, companyId) : 0;
    await recordAuditEvent(tx, {
      companyId,
      userId: auth.user.id,
      action: 'client.update',
      details: {
        ...changes,
        ...(Object.keys(baseData).length > 0 ? { fields: Object.keys(baseData) } : {}),
        ...(Object.keys(limits).length > 0 ? { limits } : {}),
        ...(changes.blocked === true ? { ended_sessions: endedSessions } : {}),
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
    const endedSessions = await deleteCompanySessions(tx, companyId);
    await recordAuditEvent(tx, {
      companyId,
      userId: auth.user.id,
      action: 'client.delete',
      details: { by_company_id: auth.realCompanyId, ended_sessions: endedSessions },
    });
  });
}

/**
 * What purging the client will remove, and when (issue #27): shown before a delete is confirmed, and for
 * a deleted client until its purge (`purgeAt`: deleted_at + CLIENT_PURGE_DAYS).
 */
export async function previewClientPurge(db: Db, companyId: number, purgeDays: number) {
  refuseSuperAdminCompany(companyId);
  const company = await findCompany(db, companyId);
  if (!company) throw apiError('COMPANY_NOT_FOUND');
  const counts = await previewCompanyPurge(db, companyId);
  const purgeAt = company.deletedAt ? new Date(company.deletedAt.getTime() + purgeDays * 86_400_000) : null;
  return { counts, purgeAt };
}

/** Takes a soft delete back before the purge: listed again, its users can sign in (sessions stay ended). */
export async function restoreClient(db: Db, auth: AuthContext, companyId: number) {
  refuseSuperAdminCompany(companyId);
  return db.transaction(async (tx) => {
    const company = await findCompany(tx, companyId);
    if (!company) throw apiError('COMPANY_NOT_FOUND');
    if (!(await restoreCompany(tx, companyId))) throw apiError('CLIENT_NOT_DELETED');
    await recordAuditEvent(tx, {
      companyId,
      userId: auth.user.id,
      action: 'client.restore',
      details: { by_company_id: auth.realCompanyId },
    });
    return (await findCompany(tx, companyId))!;
  });
}
