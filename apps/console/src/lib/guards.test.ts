import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../types/api';
import { decideStartup, guardNavigation, guardRouteAccess, isResetPage } from './guards';
import { testUser } from './test-user';

const user = testUser;

const ok = user();
const needsReset = user({ require_password_reset: true });
const noEula = user({ eula_accepted: false });
const both = user({ require_password_reset: true, eula_accepted: false });
const superAdminNoEula = user({ company_id: 1, eula_accepted: false }, { id: 1 });
const impersonatedBoth = user({ impersonated: true, require_password_reset: true, eula_accepted: false });

describe('guardNavigation (spec section 2, rules 1 to 5 in order)', () => {
  const cases: [string, Parameters<typeof guardNavigation>[0], string | null][] = [
    // 1. not authenticated, target not under /login
    [
      '1: anonymous to /dashboard',
      { path: '/dashboard', authenticated: false, user: null, redirectTo: null },
      '/login',
    ],
    ['1: anonymous to /', { path: '/', authenticated: false, user: null, redirectTo: null }, '/login'],
    [
      '1: anonymous to /eula',
      { path: '/eula', authenticated: false, user: null, redirectTo: null },
      '/login',
    ],
    [
      '1: anonymous stays on /login',
      { path: '/login', authenticated: false, user: null, redirectTo: null },
      null,
    ],
    [
      '1: anonymous stays on /login/reset',
      { path: '/login/reset', authenticated: false, user: null, redirectTo: null },
      null,
    ],
    [
      '1: anonymous stays on a reset link',
      { path: '/login/reset-password/abc', authenticated: false, user: null, redirectTo: null },
      null,
    ],
    [
      '1: /loginx is not under /login',
      { path: '/loginx', authenticated: false, user: null, redirectTo: null },
      '/login',
    ],
    // 2. forced password reset, not impersonated
    [
      '2: reset required',
      { path: '/dashboard', authenticated: true, user: needsReset, redirectTo: null },
      '/login/require-reset-password',
    ],
    [
      '2: reset required wins over the EULA',
      { path: '/dashboard', authenticated: true, user: both, redirectTo: null },
      '/login/require-reset-password',
    ],
    [
      '2: already on the reset page',
      { path: '/login/require-reset-password', authenticated: true, user: needsReset, redirectTo: null },
      null,
    ],
    [
      '2: impersonated skips the reset',
      { path: '/dashboard', authenticated: true, user: impersonatedBoth, redirectTo: null },
      null,
    ],
    // 3. EULA not accepted
    ['3: EULA missing', { path: '/devices', authenticated: true, user: noEula, redirectTo: null }, '/eula'],
    ['3: EULA page itself', { path: '/eula', authenticated: true, user: noEula, redirectTo: null }, null],
    [
      '3: reset pages are exempt',
      { path: '/login/reset', authenticated: true, user: noEula, redirectTo: null },
      null,
    ],
    [
      '3: reset link is exempt',
      { path: '/login/reset-password/t0k3n', authenticated: true, user: noEula, redirectTo: null },
      null,
    ],
    [
      '3: super admin (company 1) skips',
      { path: '/devices', authenticated: true, user: superAdminNoEula, redirectTo: null },
      null,
    ],
    [
      '3: /login goes to the EULA first',
      { path: '/login', authenticated: true, user: noEula, redirectTo: null },
      '/eula',
    ],
    // 4. root
    [
      '4: root while authenticated',
      { path: '/', authenticated: true, user: ok, redirectTo: null },
      '/dashboard',
    ],
    // 5. login screen while authenticated
    [
      '5: /login without redirectTo',
      { path: '/login', authenticated: true, user: ok, redirectTo: null },
      '/dashboard',
    ],
    [
      '5: /login with redirectTo',
      { path: '/login', authenticated: true, user: ok, redirectTo: '/users' },
      '/users',
    ],
    [
      '5: /login/42 with redirectTo',
      { path: '/login/42', authenticated: true, user: ok, redirectTo: '/groups' },
      '/groups',
    ],
    [
      '5: redirectTo under /login is ignored',
      { path: '/login', authenticated: true, user: ok, redirectTo: '/login/reset' },
      '/dashboard',
    ],
    [
      '5: reset page is not the login screen',
      { path: '/login/reset', authenticated: true, user: ok, redirectTo: null },
      null,
    ],
    // nothing to do
    ['stay', { path: '/devices', authenticated: true, user: ok, redirectTo: null }, null],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(guardNavigation(input)).toBe(expected);
  });
});

describe('decideStartup (spec section 2 "Start-up")', () => {
  const known = ['login', 'eula', 'dashboard', 'devices', 'users', 'admin', 'water'];
  it('maps the root to /dashboard in redirectTo', () => {
    expect(decideStartup({ path: '/', user: ok, knownSegments: known })).toEqual({
      redirectTo: '/dashboard',
      open: '/dashboard',
    });
  });
  it('(1) a known first segment opens as requested, whatever the user', () => {
    expect(decideStartup({ path: '/devices/offline', user: null, knownSegments: known })).toEqual({
      redirectTo: '/devices/offline',
      open: '/devices/offline',
    });
    expect(decideStartup({ path: '/users?q=a', user: both, knownSegments: known }).open).toBe('/users?q=a');
  });
  const unknown: [string, CurrentUser | null, string][] = [
    ['(2) no user: /login', null, '/login'],
    ['(3) forced reset', needsReset, '/login/require-reset-password'],
    ['(4) EULA', noEula, '/eula'],
    ['EULA applied last wins over the reset', both, '/eula'],
    ['impersonated skips both', impersonatedBoth, '/nowhere'],
    ['super admin skips the EULA', superAdminNoEula, '/nowhere'],
    ['otherwise the saved path opens', ok, '/nowhere'],
  ];
  it.each(unknown)('%s', (_name, u, open) => {
    const decision = decideStartup({ path: '/nowhere', user: u, knownSegments: known });
    expect(decision.open).toBe(open);
    expect(decision.redirectTo).toBe('/nowhere');
  });
});

describe('guardRouteAccess (route conditions)', () => {
  const superAdmin = user({ company_id: 1 }, { id: 1 });
  const farmer = user({}, { modules: ['farming'] });
  const waterModule = user({}, { modules: ['water_association'] });
  const nwa = user({}, { is_nwa: true });
  const member = user({}, { relations: { nwa: [{ id: 3, name: 'WV Nord' }] } });
  const cases: [string, string, CurrentUser, string | null][] = [
    ['admin pages need the super admin', '/admin/clients', ok, '/dashboard'],
    ['admin pages for the super admin', '/admin/clients', superAdmin, null],
    ['styleguide needs the super admin', '/styleguide/button', ok, '/dashboard'],
    ['styleguide root for the super admin', '/styleguide', superAdmin, null],
    ['farming without the module', '/farming/fields', ok, '/dashboard'],
    ['farming with the module', '/farming/task', farmer, null],
    ['super admin has all modules', '/parking', superAdmin, null],
    ['parking without the module', '/parking', farmer, '/dashboard'],
    ['map view without the module', '/map', farmer, '/dashboard'],
    ['map view with the module', '/map', user({}, { modules: ['map_view'] }), null],
    ['water without access', '/water', ok, '/dashboard'],
    ['water with the module', '/water/devices', waterModule, null],
    ['water as an NWA', '/water/members', nwa, null],
    ['water as a member', '/water/3', member, null],
    ['no condition', '/groups', ok, null],
    ['user management needs the main-user role', '/users', ok, '/dashboard'],
    ['user management for a main user', '/users', user({ roles: ['ROLE_MAINUSER'] }), null],
    ['prefix must be a whole segment', '/administration', ok, null],
  ];
  it.each(cases)('%s', (_name, path, u, expected) => {
    expect(guardRouteAccess(path, u)).toBe(expected);
  });
});

describe('isResetPage', () => {
  it.each([
    ['/login/reset', true],
    ['/login/reset-password/abc', true],
    ['/login/require-reset-password', true],
    ['/login', false],
    ['/login/5', false],
    ['/eula', false],
  ])('%s -> %s', (path, expected) => {
    expect(isResetPage(path)).toBe(expected);
  });
});
