import type { CurrentUser } from '../types/api';

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
    eula_accepted: true,
    require_password_reset: false,
    impersonated: false,
    company_id: 5,
    company: { id: 5, name: 'Acme', modules: [], is_nwa: false, ...company },
    ...overrides,
  };
}
