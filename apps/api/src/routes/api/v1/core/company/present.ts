import type { CompanyRecord } from '@iot/db';
import { MODULES, SUPER_ADMIN_COMPANY_ID } from '@iot/domain';

/** The modules a company may use: the super admin company has every module (spec section 6). */
export function effectiveModules(company: CompanyRecord): string[] {
  return company.id === SUPER_ADMIN_COMPANY_ID ? [...MODULES] : company.modules;
}

export function presentCompany(company: CompanyRecord) {
  return {
    id: company.id,
    name: company.name,
    name2: company.name2,
    street: company.street,
    street_number: company.streetNumber,
    zip: company.zip,
    city: company.city,
    district_id: company.districtId,
    state_id: company.stateId,
    country_id: company.countryId,
    country: company.countryCode,
    phone: company.phone,
    email: company.email,
    customer_number: company.customerNumber,
    logo: company.logo,
    modules: effectiveModules(company),
    is_nwa: company.isNwa,
    blocked: company.blocked,
    latitude: company.latitude,
    longitude: company.longitude,
    timezone: company.timezone,
    data_retention_days: company.dataRetentionDays,
    rollup_retention_days: company.rollupRetentionDays,
    data_retention_cap_days: company.dataRetentionCap,
  };
}
