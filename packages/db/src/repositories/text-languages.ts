import { type InterfaceLanguage, userLanguage } from '@iot/domain';
import type { Queryable } from '../db';

/**
 * The language a text of the platform is worded in for a reader who is no user (issue #23): a rule's
 * mail to an outside address, an SMS to a number no user has. A company has no language setting; its
 * language is the locale most of its main users and admins chose (then most of its users, then 'de',
 * the users' default locale). Ties go to the alphabetically first locale, so it is stable.
 */
/** SQL for the company language of the company whose id is the expression `companyId`. */
export function companyLanguageSql(companyId: string): string {
  return `coalesce((SELECT u.locale FROM users u
              WHERE u.company_id = ${companyId} AND u.deleted_at IS NULL
              GROUP BY u.locale
              ORDER BY count(*) FILTER (WHERE u.roles && ARRAY['ROLE_MAINUSER', 'ROLE_ADMIN']::text[]) DESC,
                       count(*) DESC, u.locale
              LIMIT 1), 'de')`;
}

/**
 * The language to word a mail to `email` in: its user's locale where the address is a user's, else the
 * language of `companyId` (the company whose address it is, e.g. the platform's own for SUPPORT_EMAIL).
 */
export async function languageOfAddress(
  q: Queryable,
  email: string,
  companyId: number,
): Promise<InterfaceLanguage> {
  const { rows } = await q.query<{ language: string }>(
    `SELECT coalesce((SELECT u.locale FROM users u WHERE lower(u.email) = lower($1) AND u.deleted_at IS NULL
                      LIMIT 1), ${companyLanguageSql('$2::bigint')}) AS language`,
    [email, companyId],
  );
  return userLanguage(rows[0]?.language);
}
