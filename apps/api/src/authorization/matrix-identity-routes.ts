/** Rows of the authorization matrix for the public, session, user, company and client-admin routes. */
import { PASSWORD, uniqueEmail } from '../test/fixtures';
import {
  MAIN_USER,
  NO_COMPANY_EDIT,
  NO_IMPERSONATION,
  NO_PERMISSION,
  NOT_LOGGED_IN,
  OK,
  type Row,
  TOKEN_INVALID,
  UNAUTHORIZED,
  USER_NOT_FOUND,
} from './matrix-world';

//                         anonymous      plain          main           admin          superAdmin     otherMain
export const IDENTITY_ROWS: Row[] = [
  { method: 'GET', path: () => '/sanctum/csrf-cookie', expect: [OK, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/sanctum/csrf-cookie', expect: [OK, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/core/version', expect: [OK, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/docs/json', expect: [OK, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/auth/login',
    body: (w) => ({ email: w.plainEmail, password: PASSWORD }),
    expect: [OK, OK, OK, OK, OK, OK],
  },
  { method: 'POST', path: () => '/api/v1/auth/logout', expect: [OK, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/auth/forgot-password',
    body: (w) => ({ email: w.plainEmail }),
    expect: [OK, OK, OK, OK, OK, OK],
  },
  {
    method: 'POST',
    path: () => '/api/v1/auth/reset-password',
    body: () => ({ token: 'no-such-token', password: 'Brand-New-Pass9?' }),
    expect: [TOKEN_INVALID, TOKEN_INVALID, TOKEN_INVALID, TOKEN_INVALID, TOKEN_INVALID, TOKEN_INVALID],
  },
  { method: 'GET', path: () => '/api/v1/core/user', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/auth/me', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'PUT',
    path: () => '/api/v1/core/users/acceptEula',
    body: () => ({ accepted: true }),
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  { method: 'GET', path: () => '/api/v1/core/users', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/core/users',
    body: () => ({ email: uniqueEmail('matrix'), name: 'Matrix', password: 'Brand-New-Pass9?' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/users/${w.colleagueId}`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/users/${w.colleagueId}`,
    body: () => ({ name: 'Renamed' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/users/${w.mainId}`,
    body: () => ({ name: 'Renamed main' }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, MAIN_USER, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/core/users/${w.colleagueId}/admin`,
    body: () => ({ admin: true }),
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/users/${w.colleagueId}`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, OK, OK, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/core/users/${w.mainId}`,
    expect: [NOT_LOGGED_IN, NO_PERMISSION, [403, 50103], MAIN_USER, USER_NOT_FOUND, USER_NOT_FOUND],
  },
  { method: 'GET', path: () => '/api/v1/core/company', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'PUT',
    path: () => '/api/v1/core/company/',
    body: () => ({ city: 'Freiburg' }),
    expect: [NOT_LOGGED_IN, NO_COMPANY_EDIT, OK, OK, OK, OK],
  },
  { method: 'GET', path: () => '/api/v1/core/countries', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/countries/${w.countryId}/states`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/core/states/${w.stateId}/districts`,
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  { method: 'GET', path: () => '/api/v1/core/module', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/core/modules', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  { method: 'GET', path: () => '/api/v1/core/drivers', expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK] },
  {
    method: 'POST',
    path: () => '/api/v1/core/support',
    body: () => ({ subject: 'Help', message: 'Please.' }),
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
  {
    method: 'GET',
    path: () => '/api/v1/admin/clients',
    expect: [NOT_LOGGED_IN, UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED, OK, UNAUTHORIZED],
  },
  {
    method: 'PUT',
    path: (w) => `/api/v1/admin/clients/${w.homeId}`,
    body: () => ({ modules: ['parking'] }),
    expect: [NOT_LOGGED_IN, NO_IMPERSONATION, NO_IMPERSONATION, NO_IMPERSONATION, OK, NO_IMPERSONATION],
  },
  {
    method: 'DELETE',
    path: (w) => `/api/v1/admin/clients/${w.homeId}`,
    expect: [NOT_LOGGED_IN, NO_IMPERSONATION, NO_IMPERSONATION, NO_IMPERSONATION, OK, NO_IMPERSONATION],
  },
  {
    method: 'GET',
    path: (w) => `/api/v1/admin/clients/${w.homeId}/impersonate`,
    expect: [NOT_LOGGED_IN, NO_IMPERSONATION, NO_IMPERSONATION, NO_IMPERSONATION, OK, NO_IMPERSONATION],
  },
  {
    method: 'GET',
    path: () => '/api/v1/core/leave_impersonation',
    expect: [NOT_LOGGED_IN, OK, OK, OK, OK, OK],
  },
];
