import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { SensorCheck, SensorCheckInput } from '../types';

/** GET /core/devices/{id}/sensor_checks. */
export function getSensorChecks(deviceId: number): Promise<SensorCheck[]> {
  return api<SensorCheck[]>(`/core/devices/${deviceId}/sensor_checks`);
}

export const sensorChecksQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: ['core', 'devices', deviceId, 'sensor_checks'],
    queryFn: () => getSensorChecks(deviceId),
  });

export function useSensorChecks(deviceId: number) {
  return useQuery(sensorChecksQueryOptions(deviceId));
}

export function saveSensorCheck(deviceId: number, id: number | null, body: SensorCheckInput) {
  return id === null
    ? api<SensorCheck>(`/core/devices/${deviceId}/sensor_checks`, { method: 'POST', body })
    : api<SensorCheck>(`/core/devices/${deviceId}/sensor_checks/${id}`, { method: 'PUT', body });
}

export function deleteSensorCheck(deviceId: number, id: number): Promise<unknown> {
  return api<unknown>(`/core/devices/${deviceId}/sensor_checks/${id}`, { method: 'DELETE' });
}

export function useSaveSensorCheck(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: SensorCheckInput }) =>
      saveSensorCheck(deviceId, id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sensorChecksQueryOptions(deviceId).queryKey }),
  });
}

export function useDeleteSensorCheck(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteSensorCheck(deviceId, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sensorChecksQueryOptions(deviceId).queryKey }),
  });
}
