import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Device } from '../../types/device';
import { api } from '../api-client';

/** GET /core/devices: every device of the acting company with its latest values; filtered in the browser. */
export function getDevices(): Promise<Device[]> {
  return api<Device[]>('/core/devices');
}

export const devicesQueryOptions = () =>
  queryOptions({ queryKey: ['core', 'devices'], queryFn: getDevices, staleTime: 30_000 });

export function useDevices() {
  return useQuery(devicesQueryOptions());
}
