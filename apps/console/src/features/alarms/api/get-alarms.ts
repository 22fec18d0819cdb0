import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Alarm, AlarmFilter } from '../types';

/** The alarm list is polled; the spec leaves the interval open, 30 s keeps the page close to live. */
export const ALARMS_REFETCH_MS = 30_000;

/** GET /core/devices/alarms: `open` asks for open ones, `all` for open plus those cleared within 24 h. */
export function getAlarms(filter: AlarmFilter): Promise<Alarm[]> {
  return api<Alarm[]>('/core/devices/alarms', { query: filter === 'open' ? { state: 'open' } : {} });
}

export const alarmsQueryOptions = (filter: AlarmFilter) =>
  queryOptions({
    queryKey: ['core', 'devices', 'alarms', filter],
    queryFn: () => getAlarms(filter),
    refetchInterval: ALARMS_REFETCH_MS,
  });

export function useAlarms(filter: AlarmFilter) {
  return useQuery(alarmsQueryOptions(filter));
}
