import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { devicesQueryOptions } from '../../../lib/devices/get-devices';
import { parkingAreasQueryOptions } from './get-parking-areas';

/** DELETE /parking/areas/{id}: its devices stay, without an area. */
export function deleteParkingArea(id: number): Promise<{ id: number }> {
  return api<{ id: number }>(`/parking/areas/${id}`, { method: 'DELETE' });
}

export function useDeleteParkingArea() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteParkingArea,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: parkingAreasQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey }),
      ]),
  });
}
