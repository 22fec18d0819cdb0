import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { devicesQueryOptions } from '../../../lib/devices/get-devices';
import type { Group, GroupInput } from '../types';
import { groupsQueryOptions } from './get-groups';

/** POST /core/groups or PUT /core/groups/{id} (the PUT sets the group's device ids). */
export function saveGroup({ id, ...body }: GroupInput & { id: number | null }): Promise<Group> {
  return id === null
    ? api<Group>('/core/groups', { method: 'POST', body })
    : api<Group>(`/core/groups/${id}`, { method: 'PUT', body });
}

/** Devices carry their group, so the device list is reloaded after a create or update (spec section 7). */
export function useSaveGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveGroup,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: groupsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: devicesQueryOptions().queryKey }),
      ]),
  });
}
