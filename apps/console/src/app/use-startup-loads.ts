import { useQueries } from '@tanstack/react-query';
import { alarmsQueryOptions } from '../features/alarms/api/get-alarms';
import { clientsQueryOptions } from '../features/clients/api/get-clients';
import { dashboardsQueryOptions } from '../features/dashboards/api/get-dashboards';
import { api } from '../lib/api-client';
import { useCurrentUser } from '../lib/auth';
import { devicesQueryOptions } from '../lib/devices/get-devices';
import { hasModule, isSuperAdmin } from '../lib/guards';
import { useStartupDevicesHeld } from '../lib/startup-gate';

/**
 * Lists whose screens are not built yet may answer 404 (no route) or 422 on this server; they load
 * quietly, without a toast, and count as missing (spec section 8: load failures set lists to null).
 */
function quietList(path: string): () => Promise<unknown[] | null> {
  return async () => {
    try {
      return await api<unknown[]>(path, { quietStatuses: [404, 422] });
    } catch {
      return null;
    }
  };
}

/**
 * Keys of the lists no feature owns yet (parking areas, farming fields); the features that take them over
 * keep these keys, so the start-up answers are theirs.
 */
export const STARTUP_KEYS = {
  parkingAreas: ['parking', 'areas'],
  farmingFields: ['farming', 'fields'],
} as const;

/**
 * Start-up loads of spec section 7, once the shell is up: devices (after the first screen's own loads, see
 * lib/startup-gate.ts), dashboards and device alarms (alarms again on a timer), plus clients for the super admin, parking areas and farming fields where licensed.
 * The answers sit in the query cache, so the screens open on data already there.
 */
export function useStartupLoads(): void {
  const user = useCurrentUser();
  const signedIn = !!user;
  // The dashboard holds the full list until its widgets have their own (smaller) answers.
  const devicesHeld = useStartupDevicesHeld();
  useQueries({
    queries: [
      { ...devicesQueryOptions(), enabled: signedIn && !devicesHeld },
      { ...dashboardsQueryOptions(), enabled: signedIn },
      // The alarm page's own query (open alarms, polled on its timer): one poll, one cache entry.
      { ...alarmsQueryOptions('open'), enabled: signedIn },
      { ...clientsQueryOptions(), enabled: signedIn && isSuperAdmin(user) },
      {
        queryKey: STARTUP_KEYS.parkingAreas,
        queryFn: quietList('/parking/areas'),
        enabled: signedIn && hasModule(user, 'parking'),
      },
      {
        queryKey: STARTUP_KEYS.farmingFields,
        queryFn: quietList('/farming/fields'),
        enabled: signedIn && hasModule(user, 'farming'),
      },
    ],
  });
}
