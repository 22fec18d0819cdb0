import {
  hasModule as companyHasModule,
  type ModuleName,
  type Role,
  SUPER_ADMIN_COMPANY_ID,
} from '@iot/domain';
import type { CurrentUser } from '../types/api';

/**
 * Pure routing rules of spec section 2 ("Start-up", "Navigation guard order", route conditions).
 * Every function answers the path to redirect to, or null for "stay".
 */

export const LOGIN_PATH = '/login';
export const DASHBOARD_PATH = '/dashboard';
export const EULA_PATH = '/eula';
export const REQUIRE_RESET_PATH = '/login/require-reset-password';

type GuardUser = Pick<
  CurrentUser,
  'company_id' | 'eula_accepted' | 'require_password_reset' | 'impersonated' | 'company' | 'roles'
>;

export const ROLE_MAINUSER: Role = 'ROLE_MAINUSER';

export function isUnderLogin(path: string): boolean {
  return path === LOGIN_PATH || path.startsWith(`${LOGIN_PATH}/`);
}

/** The reset pages: /login/reset, /login/reset-password/{token}, /login/require-reset-password. */
export function isResetPage(path: string): boolean {
  return (
    path === '/login/reset' ||
    path.startsWith('/login/reset-password/') ||
    path === REQUIRE_RESET_PATH ||
    path.startsWith(`${REQUIRE_RESET_PATH}/`)
  );
}

/** The Login screen itself (/login/{id?}), as opposed to the reset pages that also live under /login. */
export function isLoginScreen(path: string): boolean {
  return isUnderLogin(path) && !isResetPage(path);
}

export function isSuperAdmin(user: Pick<CurrentUser, 'company_id'> | null | undefined): boolean {
  return user?.company_id === SUPER_ADMIN_COMPANY_ID;
}

export interface GuardInput {
  path: string;
  authenticated: boolean;
  user: GuardUser | null;
  /** session storage redirectTo */
  redirectTo: string | null;
}

/** Navigation guard, rules 1 to 5 in the order of spec section 2; the first rule that fires wins. */
export function guardNavigation({ path, authenticated, user, redirectTo }: GuardInput): string | null {
  // 1. Not authenticated and target not under /login.
  if (!authenticated && !isUnderLogin(path)) return LOGIN_PATH;
  // 2. Forced password reset (the target itself excluded, or the rule would loop).
  if (authenticated && user?.require_password_reset && !user.impersonated && path !== REQUIRE_RESET_PATH) {
    return REQUIRE_RESET_PATH;
  }
  // 3. EULA not accepted; the super admin (company 1) and impersonated sessions skip it.
  if (
    authenticated &&
    user &&
    !user.eula_accepted &&
    user.company_id !== SUPER_ADMIN_COMPANY_ID &&
    !user.impersonated &&
    !isResetPage(path) &&
    path !== EULA_PATH
  ) {
    return EULA_PATH;
  }
  // 4. The root while authenticated.
  if (path === '/' && authenticated) return DASHBOARD_PATH;
  // 5. The login screen while authenticated: back to where the user wanted to go.
  if (isLoginScreen(path) && authenticated) {
    return redirectTo && !isUnderLogin(redirectTo) && redirectTo !== '/' ? redirectTo : DASHBOARD_PATH;
  }
  return null;
}

export interface StartupInput {
  /** the path the browser asked for (pathname + search) */
  path: string;
  user: GuardUser | null;
  /** first segments of the router's child routes, e.g. ['login', 'eula', 'dashboard', ...] */
  knownSegments: readonly string[];
}

export interface StartupDecision {
  /** what goes into session storage redirectTo: the requested path, the root mapped to /dashboard */
  redirectTo: string;
  /** where the app opens */
  open: string;
}

/** Start-up decision of spec section 2, steps (1) to (4); the EULA rule is applied last so it wins. */
export function decideStartup({ path, user, knownSegments }: StartupInput): StartupDecision {
  const requested = path === '/' || path === '' ? DASHBOARD_PATH : path;
  const firstSegment = requested.replace(/^\//, '').split(/[/?#]/)[0] ?? '';
  // (1) A path that begins with a known route's first segment opens as is; the navigation guard takes over.
  if (firstSegment !== '' && knownSegments.includes(firstSegment)) {
    return { redirectTo: requested, open: requested };
  }
  let open = requested;
  // (2) No user.
  if (!user) open = LOGIN_PATH;
  // (3) Forced password reset.
  if (user?.require_password_reset && !user.impersonated) open = REQUIRE_RESET_PATH;
  // (4) EULA, last so it wins; the super admin skips the EULA redirect (spec section 6).
  if (user && !user.eula_accepted && !user.impersonated && user.company_id !== SUPER_ADMIN_COMPANY_ID) {
    open = EULA_PATH;
  }
  return { redirectTo: requested, open };
}

/** The super admin has all modules (spec section 6); anyone else only the licensed ones. */
export function hasModule(user: GuardUser | null, module: ModuleName): boolean {
  return user ? companyHasModule(user.company_id, user.company.modules, module) : false;
}

/** Water routes need the water_association module or an NWA relationship (or being an NWA). */
export function hasWaterAccess(user: GuardUser | null): boolean {
  if (!user) return false;
  return (
    hasModule(user, 'water_association') ||
    user.company.is_nwa ||
    (user.company.relations?.nwa?.length ?? 0) > 0
  );
}

/**
 * Route conditions of the shell table: a missing module, missing water access or a non-admin on
 * /admin/* or /styleguide/* goes to the dashboard; so does /users without the main-user role. The admin check is the super admin (company 1):
 * the spec does not say how it is determined and gives client management to company 1 only.
 */
export function guardRouteAccess(path: string, user: GuardUser | null): string | null {
  if (!user) return null;
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (under('/admin') || under('/styleguide')) return isSuperAdmin(user) ? null : DASHBOARD_PATH;
  if (under('/farming')) return hasModule(user, 'farming') ? null : DASHBOARD_PATH;
  if (under('/parking')) return hasModule(user, 'parking') ? null : DASHBOARD_PATH;
  if (under('/map')) return hasModule(user, 'map_view') ? null : DASHBOARD_PATH;
  if (under('/water')) return hasWaterAccess(user) ? null : DASHBOARD_PATH;
  // User management is the main user's screen (spec section 6); others land on the dashboard.
  if (under('/users')) return user.roles.includes(ROLE_MAINUSER) ? null : DASHBOARD_PATH;
  return null;
}
