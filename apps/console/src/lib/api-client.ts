import { API_BASE_PATH, DEBUG_LOGGING_USER_ID, userLanguage } from '@iot/domain';
import { ApiError, mapApiError } from './api-error';
import { i18n } from './i18n';
import { notifyError } from './notify';
import { readAuthenticatedFlag, writeAuthenticatedFlag } from './session';

/**
 * The one HTTP client of the console (spec section 7): base /api/v1, cookie credentials, CSRF header
 * from the readable XSRF-TOKEN cookie, XHR marker header, `{ payload }` unwrapping, and the error
 * reactions of spec section 8 (toasts, code 76 silent, code 77 / 401 on login back to /login).
 */

export const API_BASE = API_BASE_PATH;
const CSRF_COOKIE_PATH = '/sanctum/csrf-cookie';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type Navigate = (path: string) => void;
// Until the router registers, redirects are left to the start-up decision (it runs right after the
// current-user call), so a failing start-up call never reloads the page.
let navigate: Navigate = () => undefined;
let currentUserId: number | null = null;

/** The router registers its navigate so redirects stay inside the SPA. */
export function setApiNavigator(fn: Navigate): void {
  navigate = fn;
}

/** Only user id 1 gets extra console error logging (spec section 6). */
export function setApiUserId(id: number | null): void {
  currentUserId = id;
}

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

/** GET /sanctum/csrf-cookie: sets the XSRF-TOKEN cookie; called before sign-in and when it is missing. */
export async function fetchCsrfCookie(): Promise<void> {
  await fetch(CSRF_COOKIE_PATH, {
    credentials: 'include',
    headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
  });
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** statuses that reject without a toast (optional lists that may not exist on this server yet) */
  quietStatuses?: readonly number[];
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

function react(error: ApiError): void {
  const reaction = mapApiError(
    { status: error.status, code: error.code, message: error.serverMessage, url: error.url },
    userLanguage(i18n.language),
    readAuthenticatedFlag() === true,
  );
  if (currentUserId === DEBUG_LOGGING_USER_ID) console.error('API call failed', error);
  if (reaction.toast) {
    notifyError(reaction.toast.summary, reaction.toast.detail, reaction.toast.life);
  }
  if (reaction.clearAuthenticated) writeAuthenticatedFlag(false);
  if (reaction.loginRedirectDelayMs !== null) {
    const delay = reaction.loginRedirectDelayMs;
    if (delay === 0) navigate('/login');
    else setTimeout(() => navigate('/login'), delay);
  }
}

/** Calls /api/v1<path> and answers the unwrapped payload; failures toast and reject with ApiError. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const url = buildUrl(path, options.query);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  // Mutating calls need the token; a few state-changing GETs (impersonate, leave impersonation) too,
  // so it is sent whenever the cookie exists.
  if (MUTATING.has(method) && !readCookie('XSRF-TOKEN')) await fetchCsrfCookie();
  const token = readCookie('XSRF-TOKEN');
  if (token) headers['X-XSRF-TOKEN'] = token;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'include',
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    const error = new ApiError(0, undefined, undefined, url);
    react(error);
    throw error;
  }
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) {
    const failure = (body ?? {}) as { code?: unknown; message?: unknown };
    const error = new ApiError(
      response.status,
      typeof failure.code === 'number' ? failure.code : undefined,
      typeof failure.message === 'string' ? failure.message : undefined,
      url,
    );
    if (!options.quietStatuses?.includes(response.status)) react(error);
    throw error;
  }
  if (body && typeof body === 'object' && 'payload' in body) return (body as { payload: T }).payload;
  return body as T;
}
