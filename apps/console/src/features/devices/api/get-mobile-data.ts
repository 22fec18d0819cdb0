import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { MobileData } from '../../../types/device';

/** GET /core/devices/{id}/mobile-data: the SIM's volume this billing period and its history. */
export function getMobileData(id: number, from: number, to: number): Promise<MobileData> {
  return api<MobileData>(`/core/devices/${id}/mobile-data`, {
    query: { tsstart: new Date(from).toISOString(), tsend: new Date(to).toISOString() },
  });
}

export const mobileDataQueryOptions = (id: number, from: number, to: number) =>
  queryOptions({
    queryKey: ['core', 'devices', id, 'mobile-data', from, to],
    queryFn: () => getMobileData(id, from, to),
    placeholderData: keepPreviousData,
  });

export function useMobileData(id: number, from: number, to: number) {
  return useQuery(mobileDataQueryOptions(id, from, to));
}
