import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function getVersion(): Promise<{ version: string }> {
  return api<{ version: string }>('/core/version');
}

export const versionQueryOptions = () =>
  queryOptions({ queryKey: ['core', 'version'], queryFn: getVersion, staleTime: Number.POSITIVE_INFINITY });

export function useVersion() {
  return useQuery(versionQueryOptions());
}
