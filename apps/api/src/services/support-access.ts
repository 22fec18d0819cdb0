/**
 * Support access with the client's consent (issue #27; Cumulocity's support user): a client in 'consent'
 * mode lets the super admin act as it only while a grant of one of its main users or admins runs. The
 * super admin asks (the client's main users and admins get a system message); a main user grants access
 * for some hours or ends the grant. Every change is in the client's audit log. A super admin acting as
 * the client cannot grant itself access.
 */
import type { Db } from '@iot/db';
import {
  findCompany,
  findSupportAccess,
  recordAuditEvent,
  requestSupportAccess,
  type SupportAccessRecord,
  setSupportAccess,
} from '@iot/db';
import { SUPER_ADMIN_COMPANY_ID } from '@iot/domain';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

/** Whether support may act as the company now. */
export function supportMayAct(
  company: { supportAccess: 'always' | 'consent'; supportAccessUntil: Date | null },
  now = Date.now(),
): boolean {
  return (
    company.supportAccess === 'always' ||
    (company.supportAccessUntil !== null && company.supportAccessUntil.getTime() > now)
  );
}

export async function readSupportAccess(db: Db, companyId: number): Promise<SupportAccessRecord> {
  const access = await findSupportAccess(db, companyId);
  if (!access) throw apiError('COMPANY_NOT_FOUND');
  return access;
}

export async function updateSupportAccess(
  db: Db,
  auth: AuthContext,
  changes: { mode?: 'always' | 'consent'; grantHours?: number },
  ip?: string,
): Promise<SupportAccessRecord> {
  // The client decides, not support acting as it.
  if (!isManager(auth) || auth.impersonated || auth.companyId === SUPER_ADMIN_COMPANY_ID)
    throw apiError('NO_PERMISSION_TO_GRANT_SUPPORT_ACCESS');
  const grantedUntil =
    changes.grantHours === undefined
      ? undefined
      : changes.grantHours === 0
        ? null
        : new Date(Date.now() + changes.grantHours * 3_600_000);
  await db.transaction(async (tx) => {
    await setSupportAccess(tx, auth.companyId, {
      ...(changes.mode === undefined ? {} : { mode: changes.mode }),
      ...(grantedUntil === undefined ? {} : { grantedUntil }),
    });
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'support_access.update',
      details: {
        ...(changes.mode === undefined ? {} : { mode: changes.mode }),
        ...(grantedUntil === undefined ? {} : { granted_until: grantedUntil?.toISOString() ?? null }),
        ip: ip ?? null,
      },
    });
  });
  return readSupportAccess(db, auth.companyId);
}

/** The super admin asks the client for access (its main users and admins get a system message). */
export async function askForSupportAccess(db: Db, auth: AuthContext, companyId: number): Promise<void> {
  if (companyId === SUPER_ADMIN_COMPANY_ID) throw apiError('IMPERSONATION_NOT_ALLOWED');
  const company = await findCompany(db, companyId);
  if (!company || company.deletedAt) throw apiError('COMPANY_NOT_FOUND');
  await db.transaction(async (tx) => {
    await requestSupportAccess(tx, companyId, { name: auth.user.name || auth.user.email });
    await recordAuditEvent(tx, {
      companyId,
      userId: auth.user.id,
      action: 'support_access.request',
      details: { by_company_id: auth.realCompanyId },
    });
  });
}
