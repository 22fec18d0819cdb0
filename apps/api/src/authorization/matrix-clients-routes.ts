/**
 * Rows of the authorization matrix for client administration and the external API (issue #27). The
 * world's home company has no "external API" module, so its users get 27; the super admin has every
 * module. The API-key principal has its own matrix (api-key-matrix.test.ts), over every route of the app.
 */
import { NO_IMPERSONATION, NOT_LOGGED_IN, OK, type Row, UNAUTHORIZED } from './matrix-world';

const NOT_LICENSED = [403, 27] as const;
const KEY_NOT_FOUND = [404, 90034] as const;
const NO_SUPPORT_LOG = [403, 90038] as const;
const NOT_DELETED = [409, 90047] as const;
const NO_GRANT = [403, 90046] as const;

//                         anonymous      plain          main           admin          superAdmin     otherMain
export const CLIENTS_ROWS: Row[] = [
  {
    method: 'GET',
    path: () => '/api/v1/core/company/api-keys',
    expect: [NOT_LOGGED_IN, NOT_LICENSED, NOT_LICENSED, NOT_LICENSED, OK, NOT_LICENSED],
  },
  {
    method: 'POST',
    path: () => '/api/v1/core/company/api-keys',
    body: () => ({ name: 'Matrix key', scopes: ['devices:read'] }),
    expect: [NOT_LOGGED_IN, NOT_LICENSED, NOT_LICENSED, NOT_LICENSED, OK, NOT_LICENSED],
  },
  {
    method: 'DELETE',
    path: () => '/api/v1/core/company/api-keys/999999',
    expect: [NOT_LOGGED_IN, NOT_LICENSED, NOT_LICENSED, NOT_LICENSED, KEY_NOT_FOUND, NOT_LICENSED],
  },
  {
    method: 'POST',
    path: () => '/api/v1/admin/clients',
    body: (w) => ({
      name: 'Matrix client',
      main_user: { email: `new.${w.homeId}@example.test`, name: 'New' },
    }),
    expect: [NOT_LOGGED_IN, NO_IMPERSONATION, NO_IMPERSONATION, NO_IMPERSONATION, OK, NO_IMPERSONATION],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/admin/clients/${w.homeId}/limits`,
    expect: [NOT_LOGGED_IN, UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED, OK, UNAUTHORIZED],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/admin/clients/${w.homeId}/impersonations`,
    expect: [NOT_LOGGED_IN, UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED, OK, UNAUTHORIZED],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/company/impersonations',
    expect: [NOT_LOGGED_IN, NO_SUPPORT_LOG, OK, OK, OK, OK],
  },
  { method: 'GET', path: () => '/api/v1/core/company/limits', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'GET',
    path: () => '/api/v1/admin/clients/deleted',
    expect: [NOT_LOGGED_IN, UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED, OK, UNAUTHORIZED],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/admin/clients/${w.homeId}`,
    expect: [NOT_LOGGED_IN, UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED, OK, UNAUTHORIZED],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/admin/clients/${w.homeId}/purge-preview`,
    expect: [NOT_LOGGED_IN, UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED, OK, UNAUTHORIZED],
  },
  {
    method: 'POST',
    path: (w) => `/api/v1/admin/clients/${w.homeId}/restore`,
    expect: [
      NOT_LOGGED_IN,
      NO_IMPERSONATION,
      NO_IMPERSONATION,
      NO_IMPERSONATION,
      NOT_DELETED,
      NO_IMPERSONATION,
    ],
  },
  {
    method: 'POST',
    path: (w) => `/api/v1/admin/clients/${w.homeId}/support-access-request`,
    expect: [NOT_LOGGED_IN, NO_IMPERSONATION, NO_IMPERSONATION, NO_IMPERSONATION, OK, NO_IMPERSONATION],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/company/support-access',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    // The client decides on support access; the super admin company has no one to ask.
    method: 'PUT',
    path: () => '/api/v1/core/company/support-access',
    body: () => ({ grant_hours: 1 }),
    expect: [NOT_LOGGED_IN, NO_GRANT, OK, OK, NO_GRANT, OK],
  },
];
