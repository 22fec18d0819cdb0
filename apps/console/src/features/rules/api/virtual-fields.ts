import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { VirtualField, VirtualFieldInput, VirtualPreview } from '../types';

/** GET /core/devices/{id}/virtual_data_fields. */
export function getVirtualFields(deviceId: number): Promise<VirtualField[]> {
  return api<VirtualField[]>(`/core/devices/${deviceId}/virtual_data_fields`);
}

export const virtualFieldsQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: ['core', 'devices', deviceId, 'virtual_data_fields'],
    queryFn: () => getVirtualFields(deviceId),
  });

export function useVirtualFields(deviceId: number) {
  return useQuery(virtualFieldsQueryOptions(deviceId));
}

/** POST (new) or PUT (id) /core/devices/{id}/virtual_data_fields[/{fieldId}]. */
export function saveVirtualField(deviceId: number, id: number | null, body: VirtualFieldInput) {
  return id === null
    ? api<VirtualField>(`/core/devices/${deviceId}/virtual_data_fields`, { method: 'POST', body })
    : api<VirtualField>(`/core/devices/${deviceId}/virtual_data_fields/${id}`, { method: 'PUT', body });
}

export function deleteVirtualField(deviceId: number, id: number): Promise<unknown> {
  return api<unknown>(`/core/devices/${deviceId}/virtual_data_fields/${id}`, { method: 'DELETE' });
}

/**
 * POST /core/devices/virtual_data_fields: computes a definition once on sample values. Errors come back
 * as the API's codes; the form shows them inline, so they reject without a toast.
 */
export function previewVirtualField(
  body: Partial<VirtualFieldInput> & {
    data_fields: Record<string, unknown>;
    device_id: number;
    field_id?: number;
  },
  signal?: AbortSignal,
): Promise<VirtualPreview> {
  return api<VirtualPreview>('/core/devices/virtual_data_fields', {
    method: 'POST',
    body,
    quietStatuses: [400, 409, 422],
    ...(signal ? { signal } : {}),
  });
}

// A rename rewrites rules and checks of the device, so the whole device key is refreshed.
const deviceKey = (deviceId: number) => virtualFieldsQueryOptions(deviceId).queryKey.slice(0, 3);

export function useSaveVirtualField(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: VirtualFieldInput }) =>
      saveVirtualField(deviceId, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKey(deviceId) }),
  });
}

export function useDeleteVirtualField(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteVirtualField(deviceId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKey(deviceId) }),
  });
}
