import type { LoaderFunctionArgs } from 'react-router';
import { DeviceOpenerProvider } from '../../components/device-opener';
import { dashboardsQueryOptions } from '../../features/dashboards/api/get-dashboards';
import { DashboardsPage } from '../../features/dashboards/components/dashboards-page';
import { preloadWidgetChunks } from '../../features/dashboards/components/lazy-widgets';
import { prefetchWidgetData } from '../../features/dashboards/prefetch-widget-data';
import { useDeviceDrawers } from '../../features/devices/components/device-drawers';
import { currentUserQueryOptions, isAuthenticated } from '../../lib/auth';
import { queryClient } from '../../lib/query-client';
import { holdStartupDevices } from '../../lib/startup-gate';

/**
 * Before the shell renders: the start-up device list waits for the dashboard's widgets
 * (lib/startup-gate.ts), and the dashboards are asked for at once, so the shown one's widget data and
 * chunks start loading while the shell renders. Nothing waits for them here.
 */
export function loader({ request }: LoaderFunctionArgs) {
  // Signed out, the shell sends the browser to /login: nothing to load (it would only answer 401).
  if (!isAuthenticated(queryClient.getQueryData(currentUserQueryOptions().queryKey))) return null;
  holdStartupDevices();
  const wanted = Number(new URL(request.url).searchParams.get('dashboard'));
  queryClient.fetchQuery(dashboardsQueryOptions()).then(
    (list) => {
      const shown = list.find((d) => d.id === wanted) ?? list[0];
      if (!shown) return;
      prefetchWidgetData(shown.widgets);
      preloadWidgetChunks(shown.widgets);
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
