import type { CompanyRecord } from '@iot/db/repositories/companies';
import type { UserRecord } from '@iot/db/repositories/users';
import { Type } from 'typebox';
import { CompanyPayload, presentCompany } from '../company/schemas';
import { presentUser, UserPayload } from '../users/schemas';

/** The signed-in user as the console's start-up and guards read it (spec sections 2 and 3). */
export const CurrentUserPayload = Type.Object({
  ...UserPayload.properties,
  impersonated: Type.Boolean(),
  /** The acting company's id (the client while impersonating). */
  company_id: Type.Integer(),
  real_company_id: Type.Integer(),
  company: CompanyPayload,
});

export function presentCurrentUser(input: {
  user: UserRecord;
  company: CompanyRecord;
  realCompanyId: number;
  impersonated: boolean;
}) {
  return {
    ...presentUser(input.user),
    impersonated: input.impersonated,
    company_id: input.company.id,
    real_company_id: input.realCompanyId,
    company: presentCompany(input.company),
  };
}
