import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { reloadCurrentUser } from '../../../lib/auth';

export interface SetOwnPasswordInput {
  password: string;
  password_confirmation: string;
}

/**
 * The forced password reset (require_password_reset): POST /auth/reset-password without a token
 * sets the signed-in user's password; the user is re-read so the flag clears.
 */
export async function setOwnPassword(body: SetOwnPasswordInput) {
  await api<unknown>('/auth/reset-password', { method: 'POST', body });
  return reloadCurrentUser();
}

export function useSetOwnPassword() {
  return useMutation({ mutationFn: setOwnPassword });
}
