import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { NamedItem } from '../../../types/api';

export function getStates(countryId: number): Promise<NamedItem[]> {
  return api<NamedItem[]>(`/core/countries/${countryId}/states`);
}

export const statesQueryOptions = (countryId: number | null) =>
  queryOptions({
    queryKey: ['core', 'countries', countryId, 'states'],
    queryFn: () => getStates(countryId ?? 0),
    enabled: countryId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useStates(countryId: number | null) {
  return useQuery(statesQueryOptions(countryId));
}
