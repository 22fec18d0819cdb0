import type { CompanyRecord, UserRecord } from '@iot/db';
import { presentCompany } from '../company/present';
import { presentUser } from '../users/present';

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
