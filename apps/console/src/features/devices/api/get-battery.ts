import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { DeviceSeries } from '../../../types/device';

/** GET /core/devices/{id}/battery: battery_level and battery_voltage over a period, downsampled like data. */
export function getBattery(id: number, from: number, to: number): Promise<DeviceSeries> {
  return api<DeviceSeries>(`/core/devices/${id}/battery`, {
    query: { tsstart: new Date(from).toISOString(), tsend: new Date(to).toISOString() },
  });
}

export const batteryQueryOptions = (id: number, from: number, to: number) =>
  queryOptions({
    queryKey: ['core', 'devices', id, 'battery', from, to],
    queryFn: () => getBattery(id, from, to),
    placeholderData: keepPreviousData,
  });

export function useBattery(id: number, from: number, to: number) {
  return useQuery(batteryQueryOptions(id, from, to));
}
