import type { Db } from '@iot/db';
import {
  type CompanyBaseData,
  isConsistentAddress,
  recordAuditEvent,
  updateCompanyBaseData,
  withTenant,
} from '@iot/db';
import { DEFAULT_PHONE_COUNTRY, FORM_RULES, rule } from '@iot/domain';
import { apiError } from '../lib/errors';
import { validateBody } from '../lib/validation';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';
import { checkLogo } from './check-logo';
import { checkRetention } from './check-retention';

/**
 * Updates the acting company's base data (spec section 3). Only ROLE_MAINUSER or ROLE_ADMIN (90008); name,
 * email and phone follow the company form's rules (phone for the company's country, DE by default);
 * country, state and district must exist and lie in one another (109).
 */
export async function updateCompany(db: Db, auth: AuthContext, data: CompanyBaseData) {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_EDIT_COMPANY');
  checkLogo(data.logo);
  const clean: CompanyBaseData = { ...data };
  if (typeof clean.email === 'string') clean.email = clean.email.trim() === '' ? null : clean.email.trim();
  if (typeof clean.phone === 'string' && clean.phone.trim() === '') clean.phone = null;
  validateBody(
    {
      ...(clean.name === undefined ? {} : { name: clean.name }),
      ...(clean.email == null ? {} : { email: clean.email }),
      ...(clean.phone == null ? {} : { phone: clean.phone }),
    },
    { ...FORM_RULES.company, phone: [rule.phone(auth.company.countryCode ?? DEFAULT_PHONE_COUNTRY)] },
    { partial: true },
  );
  const current = auth.company;
  checkRetention(current, clean);
  const address = {
    countryId: clean.countryId === undefined ? current.countryId : clean.countryId,
    stateId: clean.stateId === undefined ? current.stateId : clean.stateId,
    districtId: clean.districtId === undefined ? current.districtId : clean.districtId,
  };
  if (!(await isConsistentAddress(db, address))) throw apiError('ADDRESS_NOT_FOUND');
  return withTenant(db, auth.companyId, async (tx) => {
    const updated = await updateCompanyBaseData(tx, auth.companyId, clean);
    if (!updated) throw apiError('COMPANY_NOT_FOUND');
    await recordAuditEvent(tx, {
      companyId: auth.companyId,
      userId: auth.user.id,
      action: 'company.update',
      details: { fields: Object.keys(clean) },
    });
    return updated;
  });
}
