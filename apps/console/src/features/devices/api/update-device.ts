import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { devicesQueryOptions } from '../../../lib/devices/get-devices';
import type { DeviceDetails, UpdateDeviceInput } from '../../../types/device';
import { deviceQueryOptions } from './get-device';

/** PUT /core/devices/{id}: base data, group and manual state (ROLE_ADMIN, ROLE_MAINUSER). */
export function updateDevice({ id, ...body }: UpdateDeviceInput): Promise<DeviceDetails> {
  return api<DeviceDetails>(`/core/devices/${id}`, { method: 'PUT', body });
}

export function useUpdateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDevice,
    onSuccess: (device) => {
      queryClient.setQueryData(deviceQueryOptions(device.id).queryKey, device);
      return queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey });
    },
  });
}
