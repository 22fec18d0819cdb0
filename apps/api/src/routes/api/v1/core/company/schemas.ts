import type { CompanyRecord } from '@iot/db/repositories/companies';
import { MODULES, SUPER_ADMIN_COMPANY_ID } from '@iot/domain';
import { Type } from 'typebox';
import { Nullable } from '../../../../../lib/schemas';

const Text = (maxLength: number) => Nullable(Type.String({ maxLength }));

export const CompanyPayload = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  name2: Nullable(Type.String()),
  street: Nullable(Type.String()),
  street_number: Nullable(Type.String()),
  zip: Nullable(Type.String()),
  city: Nullable(Type.String()),
  district_id: Nullable(Type.Integer()),
  state_id: Nullable(Type.Integer()),
  country_id: Nullable(Type.Integer()),
  country: Nullable(Type.String({ description: 'ISO alpha-2 code: AT, CH, DE, FR' })),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  customer_number: Nullable(Type.String()),
  logo: Nullable(Type.String()),
  modules: Type.Array(Type.String(), { description: 'licensed modules; the super admin has all' }),
  is_nwa: Type.Boolean(),
  blocked: Type.Boolean(),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  timezone: Type.String(),
});

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
  };
}

/** Base data of spec section 3 a company edits itself; omitted fields stay as they are. */
export const UpdateCompanyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    name2: Type.Optional(Text(200)),
    street: Type.Optional(Text(200)),
    street_number: Type.Optional(Text(20)),
    zip: Type.Optional(Text(20)),
    city: Type.Optional(Text(200)),
    district_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    state_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    country_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    phone: Type.Optional(Text(50)),
    email: Type.Optional(Text(254)),
    customer_number: Type.Optional(Text(50)),
    logo: Type.Optional(Text(100_000)),
    latitude: Type.Optional(Nullable(Type.Number({ minimum: -90, maximum: 90 }))),
    longitude: Type.Optional(Nullable(Type.Number({ minimum: -180, maximum: 180 }))),
  },
  { additionalProperties: false },
);
