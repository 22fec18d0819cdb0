/**
 * A super admin acting as a client (spec sections 1, 6): the session row's impersonated_company_id makes
 * every later call act for the client. Start and end are written to the client's audit log, and each
 * gives the session a new id (issue #28): the cookie from before no longer works.
 */
import type { Db } from '@iot/db';
import { findCompany, listImpersonations, recordAuditEvent, setSessionImpersonation } from '@iot/db';
import { SUPER_ADMIN_COMPANY_ID } from '@iot/domain';
import { apiError } from '../lib/errors';
import { rotateSessionCookie } from '../plugins/session';
import type { AuthContext } from '../types';
import { supportMayAct } from './support-access';

export async function startImpersonation(db: Db, auth: AuthContext, companyId: number, ip?: string) {
  if (companyId === SUPER_ADMIN_COMPANY_ID) throw apiError('IMPERSONATION_NOT_ALLOWED');
  const company = await findCompany(db, companyId);
  if (!company || company.deletedAt) throw apiError('COMPANY_NOT_FOUND');
  // A client that requires consent is reachable only while a grant of its main users runs (issue #27).
  if (!supportMayAct(company)) throw apiError('SUPPORT_ACCESS_CONSENT_REQUIRED');
  await db.transaction(async (tx) => {
    if (auth.impersonated) {
      await recordAuditEvent(tx, {
        companyId: auth.companyId,
        userId: auth.user.id,
        action: 'impersonation.end',
        details: { real_company_id: auth.realCompanyId, switched_to: companyId, ip: ip ?? null },
      });
    }
    await setSessionImpersonation(tx, auth.sessionId, companyId);
    await rotateSessionCookie(tx, auth);
    await recordAuditEvent(tx, {
      companyId,
      userId: auth.user.id,
      action: 'impersonation.start',
      details: { real_company_id: auth.realCompanyId, ip: ip ?? null },
    });
  });
  return company;
}

/** Ends impersonation; without one it changes nothing and answers the same. */
export async function leaveImpersonation(db: Db, auth: AuthContext, ip?: string) {
  if (auth.impersonated) {
    await db.transaction(async (tx) => {
      await setSessionImpersonation(tx, auth.sessionId, null);
      await rotateSessionCookie(tx, auth);
      await recordAuditEvent(tx, {
        companyId: auth.companyId,
        userId: auth.user.id,
        action: 'impersonation.end',
        details: { real_company_id: auth.realCompanyId, ip: ip ?? null },
      });
    });
  }
  const own = await findCompany(db, auth.realCompanyId);
  if (!own) throw apiError('COMPANY_NOT_FOUND');
  return own;
}

/**
 * Who acted as the company, when and from where (issue #27): for the super admin about any client, and
 * for the client's own main users and admins ("support accessed your account on ..."). Read as the owner
 * role on purpose: the super admin's users belong to company 1, and their names are what the client sees.
 */
export async function listCompanyImpersonations(db: Db, companyId: number) {
  return listImpersonations(db, companyId);
}
