/** Session storage keys of spec section 3: redirectTo (a path) and authenticated ('true' / 'false'). */
import { SESSION_STORAGE_KEYS, SIGNED_IN_COOKIE } from '@iot/domain';

export const REDIRECT_TO_KEY = SESSION_STORAGE_KEYS.redirectTo;
export const AUTHENTICATED_KEY = SESSION_STORAGE_KEYS.authenticated;

function storage(): Storage | null {
  return typeof sessionStorage === 'undefined' ? null : sessionStorage;
}

/** The stored flag: true, false, or null when nothing was stored in this tab yet. */
export function readAuthenticatedFlag(): boolean | null {
  const value = storage()?.getItem(AUTHENTICATED_KEY);
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}

export function writeAuthenticatedFlag(value: boolean): void {
  storage()?.setItem(AUTHENTICATED_KEY, value ? 'true' : 'false');
}

export function readRedirectTo(): string | null {
  return storage()?.getItem(REDIRECT_TO_KEY) ?? null;
}

export function writeRedirectTo(path: string): void {
  storage()?.setItem(REDIRECT_TO_KEY, path);
}

/**
 * Whether the browser may hold a session: the API sets a readable marker cookie with the session cookie
 * and clears it with it. Without it a start asks for no user (spec section 2 "Start-up": no user, /login).
 */
export function maySignedIn(): boolean {
  if (typeof document === 'undefined') return false;
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${SIGNED_IN_COOKIE}=`));
}
