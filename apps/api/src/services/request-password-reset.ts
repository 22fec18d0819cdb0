import {
  findCompany,
  findUserForLogin,
  insertResetTokenWithinCap,
  recordAuditEvent,
  type UserRecord,
} from '@iot/db';
import { SERVER_TEXTS, userLanguage } from '@iot/domain';
import { randomToken, sha256 } from '../lib/tokens';
import type { AppDeps } from '../types';

type ResetDeps = Pick<
  AppDeps,
  'db' | 'mailer' | 'config' | 'resetTokenLifetimeSeconds' | 'afterAnswer' | 'rateLimits'
>;

/**
 * Mails a single-use reset link when the address belongs to an active user. Everything, the lookups
 * included, happens after the answer (deps.afterAnswer), so neither the answer nor its timing reveals
 * which addresses exist (issue #28). An account gets at most `rateLimits.resetMailsPerAccount` links per
 * window, whichever client addresses ask.
 */
export async function requestPasswordReset(deps: ResetDeps, email: string): Promise<void> {
  deps.afterAnswer.run('password reset mail', () => mailResetLink(deps, email));
}

async function mailResetLink(deps: ResetDeps, email: string): Promise<void> {
  const { db } = deps;
  const user = await findUserForLogin(db, email);
  if (!user || user.companyId === null) return;
  const company = await findCompany(db, user.companyId);
  if (!company || company.blocked || company.deletedAt) return;
  const cap = deps.rateLimits.resetMailsPerAccount;
  const token = randomToken();
  const expiresAt = new Date(Date.now() + deps.resetTokenLifetimeSeconds * 1000);
  const stored = await db.transaction((tx) =>
    insertResetTokenWithinCap(
      tx,
      { userId: user.id, tokenHash: sha256(token), expiresAt },
      { max: cap.max, seconds: cap.windowMs / 1000 },
    ),
  );
  await recordAuditEvent(db, {
    companyId: user.companyId,
    userId: user.id,
    action: stored ? 'auth.password_reset_requested' : 'auth.password_reset_capped',
  });
  if (!stored) return;
  await deps.mailer.send(resetMail(deps, user, user.companyId, token));
}

function resetMail(deps: ResetDeps, user: UserRecord, companyId: number, token: string) {
  const base = (deps.config.PUBLIC_URL ?? '').replace(/\/+$/, '');
  const link = `${base}/login/reset-password/${token}`;
  const minutes = Math.round(deps.resetTokenLifetimeSeconds / 60);
  const language = userLanguage(user.locale);
  const mail = SERVER_TEXTS.password_reset_mail[language]({ name: user.name, minutes, link }, language);
  return { to: user.email, companyId, subject: mail.subject ?? '', text: mail.text };
}
