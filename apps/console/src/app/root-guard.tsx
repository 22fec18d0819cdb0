import { Navigate, Outlet, useLocation } from 'react-router';
import { useWaterGuardUser } from '../features/water/api/use-water-menu-user';
import { isAuthenticated, useCurrentUser } from '../lib/auth';
import { guardNavigation, guardRouteAccess, hasWaterAccess, isUnderLogin, LOGIN_PATH } from '../lib/guards';
import { readRedirectTo, writeRedirectTo } from '../lib/session';

const isWaterPath = (path: string) => path === '/water' || path.startsWith('/water/');

/** Applies the navigation guard (spec section 2) on every navigation, then the route conditions. */
export function RootGuard() {
  const location = useLocation();
  const current = useCurrentUser();
  const authenticated = isAuthenticated(current);
  const path = location.pathname;
  // A water path without the module: an nwa membership opens it, known once GET /nwa answered.
  const water = useWaterGuardUser(current, authenticated && isWaterPath(path) && !hasWaterAccess(current));
  if (water.pending) return null;
  const user = water.user;
  const redirect =
    guardNavigation({ path, authenticated, user, redirectTo: readRedirectTo() }) ??
    (authenticated ? guardRouteAccess(path, user) : null);
  if (redirect && redirect !== path) {
    // Remember where an unauthenticated visitor wanted to go, so sign-in continues there.
    if (redirect === LOGIN_PATH && !isUnderLogin(path)) writeRedirectTo(path + location.search);
    return <Navigate to={redirect} replace />;
  }
  return <Outlet />;
}
