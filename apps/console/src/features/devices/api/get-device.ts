import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { DeviceDetails } from '../../../types/device';

/** GET /core/devices/{id}: details; credentials only for ROLE_ADMIN and ROLE_MAINUSER. */
export function getDevice(id: number): Promise<DeviceDetails> {
  return api<DeviceDetails>(`/core/devices/${id}`);
}

export const deviceQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['core', 'devices', id], queryFn: () => getDevice(id) });

export function useDevice(id: number) {
  return useQuery(deviceQueryOptions(id));
}
