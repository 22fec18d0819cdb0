import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { reloadCurrentUser } from '../../../lib/auth';

export interface SetOwnPasswordInput {
  userId: number;
  password: string;
  password_confirmation: string;
}

/**
 * The forced password reset (require_password_reset): the signed-in user sets a new password on
 * their own record (PUT /core/users/{id}); the user is re-read so the flag clears.
 */
export async function setOwnPassword({ userId, ...body }: SetOwnPasswordInput) {
  await api<unknown>(`/core/users/${userId}`, { method: 'PUT', body });
  return reloadCurrentUser();
}

export function useSetOwnPassword() {
  return useMutation({ mutationFn: setOwnPassword });
}
