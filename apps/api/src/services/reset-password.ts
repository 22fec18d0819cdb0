import type { Db } from '@iot/db';
import {
  consumePasswordResetToken,
  deleteUserSessions,
  findPasswordResetToken,
  findUserSecret,
  recordAuditEvent,
  setUserPassword,
} from '@iot/db';
import { apiError } from '../lib/errors';
import { hashPassword, verifyPassword } from '../lib/passwords';
import { sha256 } from '../lib/tokens';
import type { AuthContext } from '../types';
import { checkNewPassword } from './check-new-password';

/**
 * Sets a new password from an emailed link. The token is spent in the same transaction that changes the
 * password, and every session of the user is revoked (whoever knew the old password is logged out).
 */
export async function resetPasswordWithToken(
  db: Db,
  input: { token: string; password: string; passwordConfirmation?: string },
): Promise<void> {
  const tokenHash = sha256(input.token);
  const state = await findPasswordResetToken(db, tokenHash);
  if (!state) throw apiError('EMAIL_TOKEN_INVALID');
  if (state.usedAt || state.expiresAt.getTime() <= Date.now()) throw apiError('EMAIL_TOKEN_EXPIRED');
  // The policy is checked before the token is spent, so a weak password does not burn the link.
  checkNewPassword(input.password, input.passwordConfirmation);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const userId = await consumePasswordResetToken(tx, tokenHash);
    if (userId === null) throw apiError('EMAIL_TOKEN_EXPIRED');
    await setUserPassword(tx, userId, passwordHash);
    await deleteUserSessions(tx, userId);
    await recordAuditEvent(tx, { companyId: null, userId, action: 'auth.password_reset' });
  });
}

/**
 * Sets a new password for the signed-in user. A user under forced reset (require_password_reset) needs
 * only the new password; anyone else must also give the current one. Other sessions are revoked.
 */
export async function changeOwnPassword(
  db: Db,
  auth: AuthContext,
  input: { password: string; passwordConfirmation?: string; currentPassword?: string },
): Promise<void> {
  const user = await findUserSecret(db, auth.realCompanyId, auth.user.id);
  if (!user) throw apiError('USER_NOT_FOUND');
  if (!user.requirePasswordReset) {
    if (!input.currentPassword) throw apiError('CREDENTIAL_PARAMETER_MISSING');
    if (!(await verifyPassword(user.passwordHash, input.currentPassword))) throw apiError('LOGIN_FAILED');
  }
  checkNewPassword(input.password, input.passwordConfirmation);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    await setUserPassword(tx, user.id, passwordHash);
    await deleteUserSessions(tx, user.id, auth.sessionId);
    await recordAuditEvent(tx, {
      companyId: auth.realCompanyId,
      userId: user.id,
      action: 'auth.password_changed',
    });
  });
}
