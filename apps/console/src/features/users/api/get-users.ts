import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ManagedUser } from '../../../types/api';

export function getUsers(): Promise<ManagedUser[]> {
  return api<ManagedUser[]>('/core/users');
}

export const usersQueryOptions = () => queryOptions({ queryKey: ['core', 'users'], queryFn: getUsers });

export function useUsers() {
  return useQuery(usersQueryOptions());
}
