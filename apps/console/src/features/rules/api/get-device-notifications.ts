import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { DeviceNotification, NotificationStatus } from '../types';

/** GET /core/devices/{id}/notifications: what the device's rules sent, newest first, optionally one status. */
export function getDeviceNotifications(
  id: number,
  status: NotificationStatus | null,
): Promise<DeviceNotification[]> {
  return api<DeviceNotification[]>(`/core/devices/${id}/notifications`, {
    query: { status: status ?? undefined, limit: 200 },
  });
}

export const deviceNotificationsQueryOptions = (id: number, status: NotificationStatus | null) =>
  queryOptions({
    queryKey: ['core', 'devices', id, 'notifications', status],
    queryFn: () => getDeviceNotifications(id, status),
    // An operator who opened it to see whether an alarm's mail went out sees the retries arrive.
    refetchInterval: 15_000,
  });

export function useDeviceNotifications(id: number, status: NotificationStatus | null) {
  return useQuery(deviceNotificationsQueryOptions(id, status));
}
