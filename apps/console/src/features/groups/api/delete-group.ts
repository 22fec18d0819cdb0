import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { devicesQueryOptions } from '../../../lib/devices/get-devices';
import { groupsQueryOptions } from './get-groups';

/** DELETE /core/groups/{id}: the group's devices lose their group. */
export function deleteGroup(id: number): Promise<unknown> {
  return api(`/core/groups/${id}`, { method: 'DELETE' });
}

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGroup,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: groupsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey }),
      ]),
  });
}
