import type { Db } from '@iot/db';
import { insertSupportRequest, withTenant } from '@iot/db';
import type { Mailer } from '@iot/delivery';
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
  await deps.mailer.send({
    to: deps.supportEmail,
    companyId: auth.companyId,
    subject: `[Support #${id}] ${request.subject}`,
    text: [
      `From: ${auth.user.name} <${auth.user.email}> (user ${auth.user.id})`,
      `Company: ${auth.company.name} (id ${auth.companyId})${auth.impersonated ? ', impersonated' : ''}`,
      ...(request.phone ? [`Phone: ${request.phone}`] : []),
      '',
      request.message,
    ].join('\n'),
  });
  return id;
}
