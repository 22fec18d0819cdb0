/**
 * Queries of the defences against abuse (issue #28): the system message that tells a user of repeated
 * failed sign-ins, the cap on reset mails per account, and the rotation of a session id.
 */
import type { Queryable } from '../db';

export interface LoginFailuresNotice {
  companyId: number;
  userId: number;
  failures: number;
  addresses: number;
  minutes: number;
}

/**
 * Writes a `login_failures` system message to the user (kind and params for the console to word; English
 * subject and body for other clients). None while the user has not read the previous one. Call within the
 * user's tenant (withTenant).
 */
export async function announceLoginFailures(q: Queryable, notice: LoginFailuresNotice): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO messages (company_id, user_id, subject, body, level, kind, params)
     SELECT $1, $2, 'Failed sign-ins to your account',
            $3 || ' failed sign-ins from ' || $4 || ' address(es) within ' || $5 ||
              ' minutes. If this was not you, your password held; consider changing it.',
            4, 'login_failures', jsonb_build_object('failures', $3::int, 'addresses', $4::int, 'minutes', $5::int)
      WHERE NOT EXISTS (SELECT 1 FROM messages m
                         WHERE m.company_id = $1 AND m.user_id = $2 AND m.kind = 'login_failures'
                           AND NOT m.is_read)`,
    [notice.companyId, notice.userId, notice.failures, notice.addresses, notice.minutes],
  );
  return rowCount > 0;
}

/**
 * Stores a reset token unless the user already got `max` within the last `seconds` (the per-account cap
 * on reset mails). Locks the user's row first, so concurrent requests cannot both pass the count; call it
 * inside a transaction. True when the token was stored.
 */
export async function insertResetTokenWithinCap(
  q: Queryable,
  token: { userId: number; tokenHash: string; expiresAt: Date },
  cap: { max: number; seconds: number },
): Promise<boolean> {
  await q.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [token.userId]);
  const { rowCount } = await q.query(
    `INSERT INTO password_reset_tokens (token_hash, user_id, expires_at)
     SELECT $1, $2, $3
      WHERE (SELECT count(*) FROM password_reset_tokens
              WHERE user_id = $2 AND created_at > now() - make_interval(secs => $5)) < $4`,
    [token.tokenHash, token.userId, token.expiresAt, cap.max, cap.seconds],
  );
  return rowCount > 0;
}

/**
 * Moves a session to a new id (and CSRF token), keeping its user, impersonation, sign-in time and expiry:
 * the old cookie stops working. False when the old session is gone.
 */
export async function rotateSessionId(
  q: Queryable,
  oldId: string,
  newId: string,
  csrfToken: string,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `WITH old AS (DELETE FROM sessions WHERE id = $1 RETURNING *)
     INSERT INTO sessions (id, user_id, impersonated_company_id, csrf_token, ip, user_agent, created_at,
                           last_seen_at, expires_at)
     SELECT $2, user_id, impersonated_company_id, $3, ip, user_agent, created_at, last_seen_at, expires_at
       FROM old`,
    [oldId, newId, csrfToken],
  );
  return rowCount > 0;
}
