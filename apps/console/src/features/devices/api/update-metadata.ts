import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { devicesQueryOptions } from '../../../lib/devices/get-devices';
import type { MetadataEntry } from '../../../types/device';

/** PUT /core/devices/{id}/metadata: labels and order of the data fields (sort 1 to 99999). */
export function updateMetadata({
  id,
  data_fields,
}: {
  id: number;
  data_fields: MetadataEntry[];
}): Promise<{ data_fields: MetadataEntry[] }> {
  return api(`/core/devices/${id}/metadata`, { method: 'PUT', body: { data_fields } });
}

export function useUpdateMetadata() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMetadata,
    // The list key is the prefix of every device's own key, so details refetch too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey }),
  });
}
