/**
 * Bringing a client on board (issue #27): the company with its base data and modules, and its first main
 * user, in one transaction. The main user gets no password: the invitation mail carries a link of the
 * password reset flow (/login/reset-password/{token}), valid INVITATION_LIFETIME_SECONDS, to set one.
 */
import type { Db } from '@iot/db';
import {
  type CompanyBaseData,
  findCountryCode,
  insertCompany,
  insertPasswordResetToken,
  insertUser,
  isConsistentAddress,
  isEmailRegistered,
  recordAuditEvent,
  updateCompanyBaseData,
} from '@iot/db';
import { DEFAULT_PHONE_COUNTRY, FORM_RULES, rule, SERVER_TEXTS, userLanguage } from '@iot/domain';
import { apiError } from '../lib/errors';
import { hashPassword } from '../lib/passwords';
import { randomToken, sha256 } from '../lib/tokens';
import { validateBody } from '../lib/validation';
import type { AppDeps, AuthContext } from '../types';
import { checkLogo } from './check-logo';
import { checkRetention } from './check-retention';

export const INVITATION_LIFETIME_SECONDS = 7 * 24 * 3600;

export interface NewClientInput {
  baseData: CompanyBaseData & { name: string };
  modules: string[];
  isNwa: boolean;
  mainUser: { email: string; name: string; locale: 'de' | 'en' };
}

/** Spec section 5's company rules and a consistent country/state/district (109), as for the company itself. */
export async function checkClientBaseData(db: Db, data: CompanyBaseData, partial: boolean): Promise<void> {
  checkLogo(data.logo);
  const country = data.countryId ? await findCountryCode(db, data.countryId) : null;
  validateBody(
    {
      ...(data.name === undefined ? {} : { name: data.name }),
      ...(data.email == null || data.email === '' ? {} : { email: data.email }),
      ...(data.phone == null || data.phone === '' ? {} : { phone: data.phone }),
    },
    { ...FORM_RULES.company, phone: [rule.phone(country ?? DEFAULT_PHONE_COUNTRY)] },
    { partial },
  );
  const address = {
    countryId: data.countryId ?? null,
    stateId: data.stateId ?? null,
    districtId: data.districtId ?? null,
  };
  if (!(await isConsistentAddress(db, address))) throw apiError('ADDRESS_NOT_FOUND');
}

export async function createClient(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>,
  auth: AuthContext,
  input: NewClientInput,
) {
  const { db } = deps;
  const email = input.mainUser.email.trim();
  validateBody(
    { email, name: input.mainUser.name },
    { email: FORM_RULES.company.email, name: FORM_RULES.company.name },
  );
  await checkClientBaseData(db, input.baseData, false);
  if (await isEmailRegistered(db, email)) throw apiError('EMAIL_ALREADY_REGISTERED');
  // Nobody knows this password; the invitation link replaces it.
  const passwordHash = await hashPassword(randomToken());
  const token = randomToken();
  const { company, user } = await db.transaction(async (tx) => {
    const created = await insertCompany(tx, {
      name: input.baseData.name,
      modules: input.modules,
      isNwa: input.isNwa,
    });
    checkRetention(created, input.baseData);
    const company = (await updateCompanyBaseData(tx, created.id, input.baseData)) ?? created;
    const user = await insertUser(tx, company.id, {
      email,
      name: input.mainUser.name.trim(),
      passwordHash,
      locale: input.mainUser.locale,
      roles: ['ROLE_MAINUSER'],
      requirePasswordReset: false,
      eulaAccepted: false,
    });
    const expiresAt = new Date(Date.now() + INVITATION_LIFETIME_SECONDS * 1000);
    await insertPasswordResetToken(tx, user.id, sha256(token), expiresAt);
    await recordAuditEvent(tx, {
      companyId: company.id,
      userId: auth.user.id,
      action: 'client.create',
      details: { main_user_id: user.id, modules: input.modules, by_company_id: auth.realCompanyId },
    });
    return { company, user };
  });
  await deps.mailer.send(invitationMail(deps, user, company.id, company.name, token));
  return { company, user };
}

function invitationMail(
  deps: Pick<AppDeps, 'config'>,
  user: { email: string; name: string; locale: string },
  companyId: number,
  companyName: string,
  token: string,
) {
  const base = (deps.config.PUBLIC_URL ?? '').replace(/\/+$/, '');
  const link = `${base}/login/reset-password/${token}`;
  const days = Math.round(INVITATION_LIFETIME_SECONDS / 86400);
  const language = userLanguage(user.locale);
  const mail = SERVER_TEXTS.invitation_mail[language](
    { name: user.name, company: companyName, days, link },
    language,
  );
  return { to: user.email, companyId, subject: mail.subject ?? '', text: mail.text };
}
