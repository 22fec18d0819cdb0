import { type CompanyRecord, findCompany } from '@iot/db/repositories/companies';
import { deleteSession, recordAuditEvent } from '@iot/db/repositories/sessions';
import { findUserForLogin, recordUserLogin, type UserRecord } from '@iot/db/repositories/users';
import { apiError, tooManyRequests } from '../lib/errors';
import { burnPasswordCheck, verifyPassword } from '../lib/passwords';
import type { AppDeps } from '../types';
import { type CreatedSession, createSession } from './create-session';

export interface LogInInput {
  email: string;
  password: string;
  ip?: string | null;
  userAgent?: string | null;
  /** The session this browser held before, if any: it is replaced, never reused (no session fixation). */
  previousSessionId?: string | null;
}

/**
 * Checks the credentials and opens a session. Order matters: the password is checked before the
 * company state, so 74 and 75 are only revealed to someone who knows the password.
 */
export async function logIn(
  deps: Pick<AppDeps, 'db' | 'loginThrottle' | 'session'>,
  input: LogInInput,
): Promise<{ session: CreatedSession; user: UserRecord; company: CompanyRecord }> {
  const { db, loginThrottle } = deps;
  if (loginThrottle.isBlocked(input.email)) throw tooManyRequests(2);
  const user = await findUserForLogin(db, input.email);
  if (!user) {
    await burnPasswordCheck(input.password);
    loginThrottle.recordFailure(input.email);
    throw apiError('LOGIN_FAILED');
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    loginThrottle.recordFailure(input.email);
    await recordAuditEvent(db, { companyId: user.companyId, userId: user.id, action: 'auth.login_failed' });
    throw apiError('LOGIN_FAILED');
  }
  loginThrottle.reset(input.email);
  if (user.companyId === null) throw apiError('USER_WITHOUT_COMPANY');
  const company = await findCompany(db, user.companyId);
  if (!company || company.blocked || company.deletedAt) throw apiError('COMPANY_BLOCKED');

  const session = await db.transaction(async (tx) => {
    if (input.previousSessionId) await deleteSession(tx, input.previousSessionId);
    const created = await createSession(tx, {
      userId: user.id,
      ip: input.ip ?? null,
      userAgent: input.userAgent ?? null,
      lifetimeSeconds: deps.session.lifetimeSeconds,
    });
    await recordUserLogin(tx, user.id);
    await recordAuditEvent(tx, {
      companyId: user.companyId,
      userId: user.id,
      action: 'auth.login',
      details: { ip: input.ip ?? null },
    });
    return created;
  });
  const { passwordHash: _secret, ...record } = user;
  return { session, user: { ...record, lastLoginAt: new Date() }, company };
}
