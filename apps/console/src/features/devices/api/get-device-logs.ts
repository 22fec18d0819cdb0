import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { DeviceLog } from '../../../types/device';

/** GET /core/devices/{id}/logs: newest first, optionally one level. */
export function getDeviceLogs(id: number, level: string | null): Promise<DeviceLog[]> {
  return api<DeviceLog[]>(`/core/devices/${id}/logs`, { query: { level: level ?? undefined, limit: 500 } });
}

export const deviceLogsQueryOptions = (id: number, level: string | null) =>
  queryOptions({ queryKey: ['core', 'devices', id, 'logs', level], queryFn: () => getDeviceLogs(id, level) });

export function useDeviceLogs(id: number, level: string | null) {
  return useQuery(deviceLogsQueryOptions(id, level));
}
