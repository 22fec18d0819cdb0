import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Client } from '../../../types/api';

export function getClients(): Promise<Client[]> {
  return api<Client[]>('/admin/clients');
}

export const clientsQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'clients'], queryFn: getClients });

export function useClients() {
  return useQuery(clientsQueryOptions());
}
