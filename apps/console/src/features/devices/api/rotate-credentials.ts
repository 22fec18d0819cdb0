import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { RotatedCredentials } from '../../../types/device';
import { deviceQueryOptions } from './get-device';

/** POST /core/devices/{id}/credentials: a new device token, answered once (only its hash is kept). */
export function rotateCredentials(id: number): Promise<RotatedCredentials> {
  return api<RotatedCredentials>(`/core/devices/${id}/credentials`, { method: 'POST' });
}

export function useRotateCredentials() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateCredentials,
    onSuccess: (result) =>
      queryClient.invalidateQueries({ queryKey: deviceQueryOptions(result.device_id).queryKey }),
  });
}
