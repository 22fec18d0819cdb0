/**
 * The first super admin of a deployment without demo data (issue #29): `npm run admin:create -- --email`
 * or INITIAL_ADMIN_EMAIL on the first start of an empty database, never twice. The admin gets no password
 * anyone knows: a one-time link of the password reset flow (valid INVITATION_LIFETIME_SECONDS) sets it.
 */
import { type Db, type FirstAdminOutcome, insertFirstSuperAdmin, insertPasswordResetToken } from '@iot/db';
import { FORM_RULES } from '@iot/domain';
import { hashPassword } from '../lib/passwords';
import { randomToken, sha256 } from '../lib/tokens';
import { validateBody } from '../lib/validation';
import { INVITATION_LIFETIME_SECONDS } from './create-client';

export type FirstAdminResult =
  | { created: true; email: string; link: string; expiresAt: Date }
  | Extract<FirstAdminOutcome, { created: false }>;

export async function createFirstAdmin(
  db: Db,
  input: {
    email: string;
    name?: string | undefined;
    /** PUBLIC_URL, or where the console answers when it is unset. */
    baseUrl: string;
    /** INITIAL_ADMIN_EMAIL: only on a database without any user. */
    onlyIfEmpty: boolean;
  },
): Promise<FirstAdminResult> {
  const email = input.email.trim();
  const name = input.name?.trim() || 'Administrator';
  validateBody({ email, name }, { email: FORM_RULES.user.email, name: FORM_RULES.company.name });
  const passwordHash = await hashPassword(randomToken());
  const token = randomToken();
  const expiresAt = new Date(Date.now() + INVITATION_LIFETIME_SECONDS * 1000);
  const outcome = await db.transaction(async (tx) => {
    const result = await insertFirstSuperAdmin(
      tx,
      { email, name, passwordHash, locale: 'en', roles: ['ROLE_ADMIN', 'ROLE_MAINUSER'], eulaAccepted: true },
      { onlyIfEmpty: input.onlyIfEmpty },
    );
    if (result.created) await insertPasswordResetToken(tx, result.user.id, sha256(token), expiresAt);
    return result;
  });
  if (!outcome.created) return outcome;
  const link = `${input.baseUrl.replace(/\/+$/, '')}/login/reset-password/${token}`;
  return { created: true, email, link, expiresAt };
}
