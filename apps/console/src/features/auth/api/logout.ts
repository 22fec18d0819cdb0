import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { clearSignedInUser } from '../../../lib/auth';

/** POST /auth/logout; the local session is forgotten even when the call fails. */
export async function logout(): Promise<void> {
  try {
    await api<unknown>('/auth/logout', { method: 'POST' });
  } finally {
    clearSignedInUser();
  }
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
