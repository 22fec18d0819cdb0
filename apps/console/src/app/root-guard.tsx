import { Navigate, Outlet, useLocation } from 'react-router';
import { isAuthenticated, useCurrentUser } from '../lib/auth';
import { guardNavigation, guardRouteAccess, isUnderLogin, LOGIN_PATH } from '../lib/guards';
import { readRedirectTo, writeRedirectTo } from '../lib/session';

/** Applies the navigation guard (spec section 2) on every navigation, then the route conditions. */
export function RootGuard() {
  const location = useLocation();
  const user = useCurrentUser();
  const authenticated = isAuthenticated(user);
  const path = location.pathname;
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
