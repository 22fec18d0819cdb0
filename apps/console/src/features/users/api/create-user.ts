import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ManagedUser } from '../../../types/api';
import { usersQueryOptions } from './get-users';

export interface CreateUserInput {
  name: string;
  email: string;
  locale: string;
  password: string;
  password_confirmation: string;
}

export function createUser(input: CreateUserInput): Promise<ManagedUser> {
  return api<ManagedUser>('/core/users', { method: 'POST', body: input });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryOptions().queryKey }),
  });
}
