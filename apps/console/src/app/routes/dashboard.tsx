import type { LoaderFunctionArgs } from 'react-router';
import { DeviceOpenerProvider } from '../../components/device-opener';
import { dashboardsQueryOptions } from '../../features/dashboards/api/get-dashboards';
import { DashboardsPage } from '../../features/dashboards/components/dashboards-page';
import { preloadWidgetChunks } from '../../features/dashboards/components/lazy-widgets';
import { prefetchWidgetData } from '../../features/dashboards/prefetch-widget-data';
import { dashboardParam, rememberShownDashboard } from '../../features/dashboards/remembered-dashboard';
import { useDeviceDrawers } from '../../features/devices/components/device-drawers';
import { currentUserQueryOptions, isAuthenticated } from '../../lib/auth';
import { queryClient } from '../../lib/query-client';
import { holdStartupDevices } from '../../lib/startup-gate';

/**
 * Before the shell renders: the start-up device list waits for the dashboard's widgets
 * (lib/startup-gate.ts), and the dashboards are asked for at once, so the shown one's widget data and
 * chunks start loading while the shell renders (on a reload they were asked for at start-up already,
 * remembered-dashboard.ts). Nothing waits for them here.
 */
export function loader({ request }: LoaderFunctionArgs) {
  // Signed out, the shell sends the browser to /login: nothing to load (it would only answer 401).
  const user = queryClient.getQueryData(currentUserQueryOptions().queryKey);
  if (!user || !isAuthenticated(user)) return null;
  holdStartupDevices();
  const wantedParam = dashboardParam(new URL(request.url).search);
  const wanted = Number(wantedParam);
  queryClient.fetchQuery(dashboardsQueryOptions()).then(
    (list) => {
      const shown = list.find((d) => d.id === wanted) ?? list[0];
      if (!shown) return;
      prefetchWidgetData(shown.widgets);
      preloadWidgetChunks(shown.widgets);
      rememberShownDashboard(user, wantedParam, shown.widgets);
    },
    // The page's own query shows a failure.
    () => undefined,
  );
  return null;
}

export function Component() {
  const { openDevice } = useDeviceDrawers();
  return (
    <DeviceOpenerProvider open={openDevice}>
      <DashboardsPage />
    </DeviceOpenerProvider>
  );
}
