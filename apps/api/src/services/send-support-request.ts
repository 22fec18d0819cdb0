import type { Db } from '@iot/db';
import { insertSupportRequest, languageOfAddress, withTenant } from '@iot/db';
import type { Mailer } from '@iot/delivery';
import { SUPER_ADMIN_COMPANY_ID, wordServerText } from '@iot/domain';
import type { AuthContext } from '../types';

export interface SupportRequest {
  subject: string;
  message: string;
  phone?: string | null;
}

/** Stores the support request for the acting company and mails it to support. */
export async function sendSupportRequest(
  deps: { db: Db; mailer: Mailer; supportEmail: string },
  auth: AuthContext,
  request: SupportRequest,
): Promise<number> {
  const id = await withTenant(deps.db, auth.companyId, (tx) =>
    insertSupportRequest(tx, auth.companyId, {
      userId: auth.user.id,
      subject: request.subject,
      message: request.message,
      email: auth.user.email,
      phone: request.phone ?? null,
      context: { impersonated: auth.impersonated, real_company_id: auth.realCompanyId },
    }),
  );
  // Worded for support: its user's locale where the address is a user's, else the platform's language.
  const language = await languageOfAddress(deps.db, deps.supportEmail, SUPER_ADMIN_COMPANY_ID);
  const mail = wordServerText(
    'support_request_mail',
    {
      id,
      subject: request.subject,
      message: request.message,
      name: auth.user.name,
      email: auth.user.email,
      user_id: auth.user.id,
      company: auth.company.name,
      company_id: auth.companyId,
      impersonated: auth.impersonated,
      phone: request.phone ?? null,
    },
    language,
  )!;
  await deps.mailer.send({
    to: deps.supportEmail,
    companyId: auth.companyId,
    subject: mail.subject ?? '',
    text: mail.text,
  });
  return id;
}
