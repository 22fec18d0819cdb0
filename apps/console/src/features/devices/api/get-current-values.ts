import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { CurrentValues } from '../../../types/device';

/** GET /core/data/{id}/current: latest value per stored field with its time and stale flag. */
export function getCurrentValues(id: number): Promise<CurrentValues> {
  return api<CurrentValues>(`/core/data/${id}/current`, { query: { shape: 'flat' } });
}

export const currentValuesQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['core', 'data', id, 'current'], queryFn: () => getCurrentValues(id) });

export function useCurrentValues(id: number) {
  return useQuery(currentValuesQueryOptions(id));
}
