import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { reloadCurrentUser } from '../../../lib/auth';

/** PUT /core/users/acceptEula { eula_accepted: true }, then the user is re-read. */
export async function acceptEula() {
  await api<unknown>('/core/users/acceptEula', { method: 'PUT', body: { eula_accepted: true } });
  return reloadCurrentUser();
}

export function useAcceptEula() {
  return useMutation({ mutationFn: acceptEula });
}
