import { userLanguage } from '@iot/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '../types/api';
import { api, setApiUserId } from './api-client';
import { setLanguage } from './i18n';
import { queryClient } from './query-client';
import { readAuthenticatedFlag, writeAuthenticatedFlag } from './session';

/**
 * The signed-in user, shared by the shell and every feature. It is fetched once before the app
 * mounts (spec section 2 "Start-up") and replaced on sign-in, sign-out and impersonation.
 */
export function getCurrentUser(): Promise<CurrentUser> {
  return api<CurrentUser>('/core/user');
}

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'current-user'],
    queryFn: async (): Promise<CurrentUser | null> => getCurrentUser(),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useCurrentUser(): CurrentUser | null {
  const { data } = useQuery(currentUserQueryOptions());
  return data ?? null;
}

/** authenticated = the stored flag says true and a user is loaded. */
export function isAuthenticated(user: CurrentUser | null | undefined): boolean {
  return readAuthenticatedFlag() === true && !!user;
}

/**
 * Stores the user after sign-in (or start-up); the user's saved locale drives the interface. Re-reads
 * later in the session keep the language: a changed locale applies after logging in again (spec section 1).
 */
export function setSignedInUser(user: CurrentUser, { applyLocale = true } = {}): void {
  writeAuthenticatedFlag(true);
  setApiUserId(user.id);
  queryClient.setQueryData(currentUserQueryOptions().queryKey, user);
  if (applyLocale) {
    setLanguage(userLanguage(user.locale, typeof navigator === 'undefined' ? undefined : navigator.language));
  }
}

/** Removes every cached query but the current user and the version (mutations keep running). */
function dropTenantData(): void {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'auth' && q.queryKey[1] !== 'version' });
}

/** Forgets the user and every tenant's cached data. */
export function clearSignedInUser(): void {
  writeAuthenticatedFlag(false);
  setApiUserId(null);
  dropTenantData();
  queryClient.setQueryData(currentUserQueryOptions().queryKey, null);
}

/** Re-reads the user (after impersonation or leaving it); other tenant data is dropped first. */
export async function reloadCurrentUser(): Promise<CurrentUser> {
  const user = await getCurrentUser();
  dropTenantData();
  setSignedInUser(user, { applyLocale: false });
  return user;
}
