import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** GET /core/version carries the platform's map style (MAP_STYLE_URL); null = plain background. */
export function getPlatformInfo(): Promise<{ version: string; map_style_url?: string | null }> {
  return api('/core/version');
}

// The same call and key as the version display, so the answer is fetched once.
export const platformInfoQueryOptions = () =>
  queryOptions({
    queryKey: ['core', 'version'],
    queryFn: getPlatformInfo,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The style URL once known; undefined while loading, null without one. */
export function useMapStyleUrl(): string | null | undefined {
  const { data, isError } = useQuery(platformInfoQueryOptions());
  if (isError) return null;
  return data === undefined ? undefined : (data.map_style_url ?? null);
}
