import type { Company, DeletedClient, ImpersonationRecord } from '@iot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { clientsQueryOptions } from './get-clients';

export const deletedClientsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'clients', 'deleted'],
    queryFn: () => api<DeletedClient[]>('/admin/clients/deleted'),
  });

/** Deleted clients waiting for their purge (super admin). */
export function useDeletedClients() {
  return useQuery(deletedClientsQueryOptions());
}

/** POST /admin/clients/{id}/restore: the client returns to the list, the deleted list loses it. */
export function useRestoreClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<Company>(`/admin/clients/${id}/restore`, { method: 'POST' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientsQueryOptions().queryKey }),
  });
}

/** Who acted as the client, when and from where (the super admin's view of the record). */
export function useClientImpersonations(id: number) {
  return useQuery({
    queryKey: ['admin', 'clients', id, 'impersonations'],
    queryFn: () => api<ImpersonationRecord[]>(`/admin/clients/${id}/impersonations`),
  });
}
