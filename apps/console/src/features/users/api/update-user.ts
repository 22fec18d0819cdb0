import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ManagedUser } from '../../../types/api';
import { usersQueryOptions } from './get-users';

export interface UpdateUserInput {
  id: number;
  name?: string;
  email?: string;
  locale?: string;
  roles?: string[];
  password?: string;
  password_confirmation?: string;
}

/** PUT /core/users/{id}; also the admin toggle, which sends the new roles. */
export function updateUser({ id, ...body }: UpdateUserInput): Promise<ManagedUser> {
  return api<ManagedUser>(`/core/users/${id}`, { method: 'PUT', body });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryOptions().queryKey }),
  });
}
