/** Session storage keys of spec section 3: redirectTo (a path) and authenticated ('true' / 'false'). */
import { SESSION_STORAGE_KEYS } from '@iot/domain';

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
