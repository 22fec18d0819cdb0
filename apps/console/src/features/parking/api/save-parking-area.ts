import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { devicesQueryOptions } from '../../../lib/devices/get-devices';
import type { ParkingArea, ParkingAreaInput } from '../types';
import { parkingAreasQueryOptions } from './get-parking-areas';

/** POST /parking/areas or PUT /parking/areas/{id} (devices: exactly the area's devices afterwards). */
export function saveParkingArea({
  id,
  ...body
}: ParkingAreaInput & { id: number | null }): Promise<ParkingArea> {
  return id === null
    ? api<ParkingArea>('/parking/areas', { method: 'POST', body })
    : api<ParkingArea>(`/parking/areas/${id}`, { method: 'PUT', body });
}

/** Devices carry their parking area, so the device list is reloaded too. */
export function useSaveParkingArea() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveParkingArea,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: parkingAreasQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey }),
      ]),
  });
}
