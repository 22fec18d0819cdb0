import type { CurrentUser } from '../types/api';

const ACME: CurrentUser['company'] = {
  id: 5,
  name: 'Acme',
  name2: null,
  street: null,
  street_number: null,
  zip: null,
  city: null,
  district_id: null,
  state_id: null,
  country_id: null,
  country: null,
  phone: null,
  email: null,
  customer_number: null,
  logo: null,
  modules: [],
  is_nwa: false,
  blocked: false,
  latitude: null,
  longitude: null,
  timezone: 'Europe/Berlin',
};

/** A signed-in plain user of company 5, for unit tests of the pure guard and menu logic. */
export function testUser(
  overrides: Partial<CurrentUser> = {},
  company: Partial<CurrentUser['company']> = {},
): CurrentUser {
  return {
    id: 7,
    email: 'anna@example.com',
    name: 'Anna',
    locale: 'de',
    roles: [],
    is_admin: false,
    is_mainuser: false,
    eula_accepted: true,
    require_password_reset: false,
    phone: null,
    last_login: null,
    created_at: '2026-01-01T00:00:00.000Z',
    impersonated: false,
    company_id: 5,
    real_company_id: 5,
    company: { ...ACME, ...company },
    ...overrides,
  };
}
