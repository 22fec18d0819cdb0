import { findCompany } from '@iot/db/repositories/companies';
import { recordAuditEvent } from '@iot/db/repositories/sessions';
import { findUserForLogin, insertPasswordResetToken } from '@iot/db/repositories/users';
import { randomToken, sha256 } from '../lib/tokens';
import type { AppDeps } from '../types';

/**
 * Mails a single-use reset link when the address belongs to an active user. It returns the same way
 * whether or not it did, so the route's answer does not reveal which addresses exist.
 */
export async function requestPasswordReset(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config' | 'resetTokenLifetimeSeconds'>,
  email: string,
): Promise<void> {
  const { db } = deps;
  const user = await findUserForLogin(db, email);
  if (!user || user.companyId === null) return;
  const company = await findCompany(db, user.companyId);
  if (!company || company.blocked || company.deletedAt) return;

  const token = randomToken();
  const expiresAt = new Date(Date.now() + deps.resetTokenLifetimeSeconds * 1000);
  await insertPasswordResetToken(db, user.id, sha256(token), expiresAt);
  await recordAuditEvent(db, {
    companyId: user.companyId,
    userId: user.id,
    action: 'auth.password_reset_requested',
  });

  const base = (deps.config.PUBLIC_URL ?? '').replace(/\/+$/, '');
  const link = `${base}/login/reset-password/${token}`;
  const minutes = Math.round(deps.resetTokenLifetimeSeconds / 60);
  const german = user.locale === 'de';
  await deps.mailer.send({
    to: user.email,
    companyId: user.companyId,
    subject: german ? 'Passwort zurücksetzen' : 'Reset your password',
    text: german
      ? `Hallo ${user.name},\n\nmit diesem Link setzen Sie Ihr Passwort zurück (gültig ${minutes} Minuten, einmal verwendbar):\n${link}\n\nWenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail.`
      : `Hello ${user.name},\n\nuse this link to reset your password (valid for ${minutes} minutes, usable once):\n${link}\n\nIf you did not ask for this, ignore this email.`,
  });
}
