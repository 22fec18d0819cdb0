import { useMutation } from '@tanstack/react-query';
import { api, fetchCsrfCookie } from '../../../lib/api-client';
import { clearSignedInUser, setSignedInUser } from '../../../lib/auth';
import type { CurrentUser } from '../../../types/api';

export interface LoginInput {
  email: string;
  password: string;
}

/** GET /sanctum/csrf-cookie, then POST /auth/login; success stores the user, failure clears it. */
export async function login(input: LoginInput): Promise<CurrentUser> {
  await fetchCsrfCookie();
  try {
    const user = await api<CurrentUser>('/auth/login', { method: 'POST', body: input });
    setSignedInUser(user);
    return user;
  } catch (error) {
    clearSignedInUser();
    throw error;
  }
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
