import {
  announceLoginFailures,
  type CompanyRecord,
  deleteSession,
  findCompany,
  findUserForLogin,
  recordAuditEvent,
  recordUserLogin,
  type UserRecord,
  withTenant,
} from '@iot/db';
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
 * Counts a failed login of this account and address; when the account's failures from every address
 * reach the throttle's threshold, its user gets a `login_failures` system message (issue #28).
 */
async function recordLoginFailure(
  deps: Pick<AppDeps, 'db' | 'loginThrottle' | 'rateLimits'>,
  input: LogInInput,
  user: UserRecord | null,
): Promise<void> {
  const { db, loginThrottle } = deps;
  const { failures, addresses } = loginThrottle.recordFailure(input.email, input.ip ?? '');
  if (!user) return;
  await recordAuditEvent(db, { companyId: user.companyId, userId: user.id, action: 'auth.login_failed' });
  const companyId = user.companyId;
  if (companyId === null || failures !== loginThrottle.notifyAfter) return;
  const minutes = Math.round(deps.rateLimits.loginPerAccountAndAddress.windowMs / 60_000);
  await withTenant(db, companyId, (tx) =>
    announceLoginFailures(tx, { companyId, userId: user.id, failures, addresses, minutes }),
  );
}

/**
 * Checks the credentials and opens a session. Order matters: the password is checked before the
 * company state, so 74 and 75 are only revealed to someone who knows the password. Failures slow down
 * the address that made them (LoginThrottle), never the account's owner elsewhere.
 */
export async function logIn(
  deps: Pick<AppDeps, 'db' | 'loginThrottle' | 'session' | 'rateLimits'>,
  input: LogInInput,
): Promise<{ session: CreatedSession; user: UserRecord; company: CompanyRecord }> {
  const { db, loginThrottle } = deps;
  const address = input.ip ?? '';
  if (loginThrottle.isBlocked(input.email, address)) throw tooManyRequests(2);
  const user = await findUserForLogin(db, input.email);
  if (!user) {
    await burnPasswordCheck(input.password);
    await recordLoginFailure(deps, input, null);
    throw apiError('LOGIN_FAILED');
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await recordLoginFailure(deps, input, user);
    throw apiError('LOGIN_FAILED');
  }
  loginThrottle.reset(input.email, address);
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
