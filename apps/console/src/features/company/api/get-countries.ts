import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { NamedItem } from '../../../types/api';

export function getCountries(): Promise<NamedItem[]> {
  return api<NamedItem[]>('/core/countries');
}

export const countriesQueryOptions = () =>
  queryOptions({
    queryKey: ['core', 'countries'],
    queryFn: getCountries,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useCountries() {
  return useQuery(countriesQueryOptions());
}
