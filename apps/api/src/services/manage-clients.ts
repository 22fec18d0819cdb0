/** The super admin's client management (spec sections 1, 6): block, license modules, soft delete. */
import type { Db } from '@iot/db';
import { type ClientChanges, recordAuditEvent, softDeleteCompany, updateClient } from '@iot/db';
import { SUPER_ADMIN_COMPANY_ID } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';

function refuseSuperAdminCompany(companyId: number): void {
  // Blocking or deleting company 1 would lock every super admin out.
  if (companyId === SUPER_ADMIN_COMPANY_ID)
    throw apiError('BAD_REQUEST', { reason: 'the super admin company cannot be changed here' });
}

export async function changeClient(db: Db, auth: AuthContext, companyId: number, changes: ClientChanges) {
  refuseSuperAdminCompany(companyId);
  return db.transaction(async (tx) => {
    const company = await updateClient(tx, companyId, changes);
    if (!company) throw apiError('COMPANY_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId,
      userId: auth.user.id,
      action: 'client.update',
      details: { ...changes, by_company_id: auth.realCompanyId },
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
