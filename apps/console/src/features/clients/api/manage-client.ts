import type { ClientLimitUse, ClientPurgePreview, Company, SupportAccess } from '@iot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { CompanyInput } from '../../company/api/update-company';
import { clientsQueryOptions } from './get-clients';

export type ClientLimitKey = ClientLimitUse['key'];

export interface ClientChanges extends Partial<CompanyInput> {
  blocked?: boolean;
  customer_number?: string | null;
  modules?: string[];
  logo?: string | null;
  limits?: Partial<Record<ClientLimitKey, number | null>>;
}

export const clientLimitsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'clients', id, 'limits'],
    queryFn: () => api<ClientLimitUse[]>(`/admin/clients/${id}/limits`),
  });

export function useClientLimits(id: number) {
  return useQuery(clientLimitsQueryOptions(id));
}

/** GET /admin/clients/{id}: the client's whole base data, which the list leaves out. */
export function useClient(id: number) {
  return useQuery({
    queryKey: ['admin', 'clients', id, 'company'],
    queryFn: () => api<Company>(`/admin/clients/${id}`),
  });
}

/** PUT /admin/clients/{id}: block, modules, logo, limits (super admin). */
export function useUpdateClient(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ClientChanges) =>
      api<Company>(`/admin/clients/${id}`, { method: 'PUT', body: changes }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: clientsQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: clientLimitsQueryOptions(id).queryKey });
    },
  });
}

/** What a purge of the client removes; read before a delete is confirmed. */
export function getPurgePreview(id: number) {
  return api<ClientPurgePreview>(`/admin/clients/${id}/purge-preview`);
}

export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<{ id: number }>(`/admin/clients/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientsQueryOptions().queryKey }),
  });
}

/** Asks a client that requires consent for support access (its main users get a message). */
export function useRequestSupportAccess() {
  return useMutation({
    mutationFn: (id: number) =>
      api<{ id: number }>(`/admin/clients/${id}/support-access-request`, { method: 'POST' }),
  });
}

export const supportAccessQueryOptions = () =>
  queryOptions({
    queryKey: ['core', 'company', 'support-access'],
    queryFn: () => api<SupportAccess>('/core/company/support-access'),
  });

export function useSupportAccess() {
  return useQuery(supportAccessQueryOptions());
}

export function useUpdateSupportAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { mode?: 'always' | 'consent'; grant_hours?: number }) =>
      api<SupportAccess>('/core/company/support-access', { method: 'PUT', body }),
    onSuccess: (data) => queryClient.setQueryData(supportAccessQueryOptions().queryKey, data),
  });
}
