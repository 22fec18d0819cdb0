import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Downlink } from '../types';

/** GET /core/devices/{id}/downlinks: the device's command history, newest first. */
export function getDownlinks(deviceId: number): Promise<Downlink[]> {
  return api<Downlink[]>(`/core/devices/${deviceId}/downlinks`);
}

export const downlinksQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: ['core', 'devices', deviceId, 'downlinks'],
    queryFn: () => getDownlinks(deviceId),
    // A sent command is acknowledged by the device later; the open dialog follows it.
    refetchInterval: 10_000,
  });

export function useDownlinks(deviceId: number) {
  return useQuery(downlinksQueryOptions(deviceId));
}

/** POST /core/devices/{id}/downlink `{ command, params }` (ROLE_ADMIN, ROLE_MAINUSER; 92 to 95). */
export function sendDownlink(deviceId: number, command: string, params: Record<string, unknown>) {
  return api<{ id: number; state: string }>(`/core/devices/${deviceId}/downlink`, {
    method: 'POST',
    body: { command, params },
  });
}

export function useSendDownlink(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ command, params }: { command: string; params: Record<string, unknown> }) =>
      sendDownlink(deviceId, command, params),
    // A failed send is recorded too (95), so the history is refreshed either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: downlinksQueryOptions(deviceId).queryKey }),
  });
}
