import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { reloadCurrentUser } from '../../../lib/auth';

/** GET /admin/clients/{id}/impersonate, then the user (now acting as the client) is re-read. */
export async function impersonateClient(clientId: number) {
  await api<unknown>(`/admin/clients/${clientId}/impersonate`);
  return reloadCurrentUser();
}

export function useImpersonateClient() {
  return useMutation({ mutationFn: impersonateClient });
}
