import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ParkingHistory } from '../types';

export type HistoryRange = '24h' | '1w' | '1m' | '1y';

/** GET /parking/areas/{id}/history: hourly occupancy (daily for a year), stays, share of time full. */
export const parkingHistoryQueryOptions = (id: number, range: HistoryRange) =>
  queryOptions({
    queryKey: ['parking', 'areas', id, 'history', range],
    queryFn: () => api<ParkingHistory>(`/parking/areas/${id}/history`, { query: { range } }),
  });

export function useParkingHistory(id: number, range: HistoryRange) {
  return useQuery(parkingHistoryQueryOptions(id, range));
}
