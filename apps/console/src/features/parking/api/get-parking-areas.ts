import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ParkingArea } from '../types';

/**
 * The live data path of the device screens: the list is polled, so free slots the rules worker keeps
 * current show up without a reload. Shorter than the devices' 30 s: a free count is read at a glance.
 */
export const PARKING_REFRESH_MS = 10_000;

/** GET /parking/areas. The key is the start-up load's (app STARTUP_KEYS.parkingAreas), so its answer is ours. */
export function getParkingAreas(): Promise<ParkingArea[]> {
  return api<ParkingArea[]>('/parking/areas');
}

export const parkingAreasQueryOptions = () =>
  queryOptions({
    queryKey: ['parking', 'areas'],
    queryFn: getParkingAreas,
    refetchInterval: PARKING_REFRESH_MS,
  });

export function useParkingAreas() {
  return useQuery(parkingAreasQueryOptions());
}
