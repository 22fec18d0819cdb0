import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { NamedItem } from '../../../types/api';

export function getDistricts(stateId: number): Promise<NamedItem[]> {
  return api<NamedItem[]>(`/core/states/${stateId}/districts`);
}

export const districtsQueryOptions = (stateId: number | null) =>
  queryOptions({
    queryKey: ['core', 'states', stateId, 'districts'],
    queryFn: () => getDistricts(stateId ?? 0),
    enabled: stateId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useDistricts(stateId: number | null) {
  return useQuery(districtsQueryOptions(stateId));
}
