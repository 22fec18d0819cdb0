import type { Company, CreateClientInput } from '@iot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { clientsQueryOptions } from './get-clients';

/** POST /admin/clients: the client and its main user, who gets an invitation mail (super admin). */
export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateClientInput) => api<Company>('/admin/clients', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clientsQueryOptions().queryKey }),
  });
}
