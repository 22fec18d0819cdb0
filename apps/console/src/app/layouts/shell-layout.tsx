import { MOBILE_BREAKPOINT_PX } from '@iot/domain';
import { Building2Icon } from 'lucide-react';
import { lazy, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { DeviceActionsProvider } from '../../components/device-actions';
import { LazyPanel } from '../../components/lazy-panel';
import { OverlayHost, useOverlay } from '../../components/shell/overlay-host';
import { ShellFooter } from '../../components/shell/shell-footer';
import { Sidebar } from '../../components/shell/sidebar';
import { type LayoutMode, Topbar } from '../../components/shell/topbar';
import { TooltipProvider } from '../../components/ui/tooltip';
import { useLogout } from '../../features/auth/api/logout';
import { IdleWatcher } from '../../features/auth/components/idle-watcher';
import { VersionDisplay } from '../../features/auth/components/version-display';
import { ImpersonationBanner } from '../../features/clients/components/impersonation-banner';
import { MessagesButton } from '../../features/messages/components/messages-button';
import { SupportWidget } from '../../features/support/components/support-widget';
import { useWaterMenuUser } from '../../features/water/api/use-water-menu-user';
import { isAuthenticated, useCurrentUser } from '../../lib/auth';
import { buildFooterMenu, buildMenu } from '../../lib/menu';
import { useMediaQuery } from '../../lib/use-media-query';
import { cn } from '../../lib/utils';
import type { CurrentUser } from '../../types/api';
import { DEVICE_ACTIONS } from '../device-actions';
import { useStartupLoads } from '../use-startup-loads';

// Settings (the company form and, for managers, the integrations) is opened now and then, not on the
// first screen: a chunk of its own keeps the first screen within its budget of 300 kB gzipped JS.
const SettingsDrawer = lazy(() => import('./settings-drawer').then((m) => ({ default: m.SettingsDrawer })));

const LAYOUT_MODE_KEY = 'layoutMode';

function readLayoutMode(): LayoutMode {
  return localStorage.getItem(LAYOUT_MODE_KEY) === 'overlay' ? 'overlay' : 'static';
}

/** Development hosts get the styleguide and docs links (spec section 2). */
function isDevelopmentHost(): boolean {
  return (
    import.meta.env.DEV || import.meta.env.VITE_DEVELOPMENT_HOST === '1' || location.hostname === 'localhost'
  );
}

function ShellFrame({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const overlay = useOverlay();
  const logout = useLogout();
  useStartupLoads();
  const mobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`);
  const [layoutMode, setLayoutMode] = useState<LayoutMode>(readLayoutMode);
  // Static: the menu sits beside the content and the toggle hides it. Overlay (and mobile): the
  // menu is hidden and the toggle slides it over the content.
  const [staticHidden, setStaticHidden] = useState(false);
  const [overlayOpen, setOverlayOpen] = useState(false);
  const overlayMode = mobile || layoutMode === 'overlay';

  const menuUser = useWaterMenuUser(user);
  const entries = useMemo(() => buildMenu(menuUser, { developmentHost: isDevelopmentHost() }), [menuUser]);
  const footer = useMemo(() => buildFooterMenu(), []);

  // A navigation closes the overlay menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path changes only
  useEffect(() => setOverlayOpen(false), [location.pathname]);

  // Escape closes the overlay menu, as it closes dialogs and drawers.
  useEffect(() => {
    if (!overlayOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOverlayOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [overlayOpen]);

  const toggleMenu = () => (overlayMode ? setOverlayOpen((o) => !o) : setStaticHidden((h) => !h));
  const toggleLayoutMode = () => {
    const next = layoutMode === 'static' ? 'overlay' : 'static';
    localStorage.setItem(LAYOUT_MODE_KEY, next);
    setLayoutMode(next);
    setOverlayOpen(false);
  };
  const openSettings = () =>
    overlay.openDrawer({
      header: {
        name: user.company.name,
        icon: <Building2Icon />,
        email: user.company.email ?? null,
        id: user.company.id,
      },
      testId: 'company-drawer',
      render: (close) => (
        <LazyPanel>
          <SettingsDrawer user={user} onDone={close} />
        </LazyPanel>
      ),
    });
  const doLogout = () => logout.mutate(undefined, { onSettled: () => navigate('/login', { replace: true }) });

  const admin = user.roles.includes('ROLE_ADMIN');
  return (
    <div
      className={cn('flex min-h-dvh bg-muted/40', admin && 'layout-admin')}
      data-testid="shell"
      data-layout={overlayMode ? 'overlay' : 'static'}
      data-menu={overlayMode ? (overlayOpen ? 'open' : 'closed') : staticHidden ? 'closed' : 'open'}
    >
      {!overlayMode && !staticHidden && (
        <Sidebar
          entries={entries}
          footer={footer}
          logo={user.company.logo ?? null}
          className="sticky top-0 h-dvh shrink-0"
        />
      )}
      {overlayMode && overlayOpen && (
        <div className="fixed inset-0 z-40 flex">
          <Sidebar
            entries={entries}
            footer={footer}
            onNavigate={() => setOverlayOpen(false)}
            logo={user.company.logo ?? null}
            className="shadow-xl"
          />
          <button
            type="button"
            className="flex-1 bg-black/40"
            aria-label={t('shell.close-menu')}
            onClick={() => setOverlayOpen(false)}
            data-testid="menu-backdrop"
          />
        </div>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <ImpersonationBanner user={user} />
        <Topbar
          user={user}
          mobile={mobile}
          layoutMode={layoutMode}
          onToggleMenu={toggleMenu}
          onToggleLayoutMode={toggleLayoutMode}
          onSettings={openSettings}
          onLogout={doLogout}
          actions={<MessagesButton />}
        />
        <main className="flex-1 p-4 md:p-6" data-testid="shell-content">
          <Outlet />
        </main>
        <ShellFooter>
          <VersionDisplay className="mr-16" />
        </ShellFooter>
      </div>
      <SupportWidget />
      <IdleWatcher />
    </div>
  );
}

/** The shell after login (spec section 2): side menu, top bar, footer, support widget, overlays. */
export function ShellLayout() {
  const user = useCurrentUser();
  if (!user || !isAuthenticated(user)) return <Navigate to="/login" replace />;
  return (
    <TooltipProvider delayDuration={300}>
      <DeviceActionsProvider actions={DEVICE_ACTIONS}>
        <OverlayHost>
          <ShellFrame user={user} />
        </OverlayHost>
      </DeviceActionsProvider>
    </TooltipProvider>
  );
}
