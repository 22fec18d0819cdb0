import './styles.css';
import { startupLanguage, TOAST_POSITION } from '@iot/domain';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { createRouter, ROUTE_SEGMENTS } from './app/router';
import { setApiNavigator } from './lib/api-client';
import { currentUserQueryOptions, getCurrentUser, setSignedInUser } from './lib/auth';
import { decideStartup } from './lib/guards';
import { i18n, languageReady, setLanguage } from './lib/i18n';
import { queryClient } from './lib/query-client';
import { maySignedIn, readAuthenticatedFlag, writeAuthenticatedFlag, writeRedirectTo } from './lib/session';
import type { CurrentUser } from './types/api';

const DASHBOARD_PATH = '/dashboard';

/** Start-up of spec section 2: fetch the current user before mounting, then decide where to open. */
async function start(): Promise<void> {
  setLanguage(startupLanguage(navigator.language));
  let user: CurrentUser | null = null;
  // Signed out (this tab says so, or no session marker cookie): no call that would only answer 401.
  const maybeSignedIn = readAuthenticatedFlag() !== false && maySignedIn();
  // On the dashboard, what prefetches its widgets loads while the user is fetched (used once it is known).
  const rememberedDashboard =
    maybeSignedIn && window.location.pathname === DASHBOARD_PATH
      ? import('./features/dashboards/remembered-dashboard')
      : null;
  if (maybeSignedIn) {
    try {
      user = await getCurrentUser();
    } catch {
      user = null;
    }
  }
  if (user) setSignedInUser(user);
  else {
    writeAuthenticatedFlag(false);
    queryClient.setQueryData(currentUserQueryOptions().queryKey, null);
  }

  const requested = window.location.pathname + window.location.search;
  const decision = decideStartup({ path: requested, user, knownSegments: ROUTE_SEGMENTS });
  writeRedirectTo(decision.redirectTo);
  if (decision.open !== requested) window.history.replaceState(null, '', decision.open);
  if (user && rememberedDashboard && window.location.pathname === DASHBOARD_PATH) {
    const signedIn = user;
    const search = window.location.search;
    rememberedDashboard.then(
      (m) => m.prefetchRememberedDashboard(signedIn, search),
      // The route loads it again and shows a failure.
      () => undefined,
    );
  }

  const router = createRouter();
  setApiNavigator((path) => void router.navigate(path));
  // The first render in the user's language: its strings are a chunk loaded while the user was fetched.
  await languageReady();

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
          {/* Top right, below the header row so the language switcher and user menu stay reachable. */}
          <Toaster
            position={TOAST_POSITION}
            offset={{ top: 64, right: 16 }}
            closeButton
            richColors
            expand={false}
          />
        </QueryClientProvider>
      </I18nextProvider>
    </StrictMode>,
  );
}

void start();
