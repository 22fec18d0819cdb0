import { CSRF_REDIRECT_DELAY_MS, ERRORS, errorToast, type InterfaceLanguage } from '@iot/domain';

/**
 * Reactions to a failed call (spec section 8), pure so they are testable without a DOM. The toast
 * text itself comes from the domain's errorToast (the same catalogue the API answers with).
 */
export const CODE_NOT_LOGGED_IN = ERRORS.NOT_LOGGED_IN.code;
export const CODE_INVALID_CSRF = ERRORS.INVALID_CSRF_TOKEN.code;

export class ApiError extends Error {
  readonly status: number;
  readonly code: number | undefined;
  readonly url: string;
  readonly serverMessage: string | undefined;
  constructor(status: number, code: number | undefined, message: string | undefined, url: string) {
    super(message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.url = url;
    this.serverMessage = message;
  }
}

export interface ErrorReaction {
  toast: { summary: string; detail: string; life: number } | null;
  /** set session storage authenticated to 'false' */
  clearAuthenticated: boolean;
  /** go to /login after this many ms (0 = now), or null */
  loginRedirectDelayMs: number | null;
}

/** A request URL is a login URL when its path ends in /login (POST /auth/login). */
export function isLoginUrl(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return /\/login\/?$/.test(path);
}

export interface FailedCall {
  status: number;
  code?: number | undefined;
  message?: string | undefined;
  url: string;
}

/**
 * Any failure toasts "Error {status}" for 10 s with the translated api.response-<code>, else the
 * message, else the apology. Code 76: silent (see below). Code 77: flag false and /login after 3 s. A 401 on
 * a login URL: flag false and /login.
 */
export function mapApiError(
  error: FailedCall,
  language: InterfaceLanguage,
  /** the session storage flag said authenticated when the call failed */
  wasAuthenticated = false,
): ErrorReaction {
  const toast = errorToast(error.status, { code: error.code, message: error.message }, language);
  const shown = toast ? { summary: toast.summary, detail: toast.detail, life: toast.life } : null;
  if (error.code === CODE_NOT_LOGGED_IN) {
    // Silent. If the console believed it was signed in, the server session has ended (expired,
    // revoked, server restarted): the flag goes false and sign-in follows, still without a toast.
    return wasAuthenticated
      ? { toast: null, clearAuthenticated: true, loginRedirectDelayMs: 0 }
      : { toast: null, clearAuthenticated: false, loginRedirectDelayMs: null };
  }
  if (error.code === CODE_INVALID_CSRF) {
    return { toast: shown, clearAuthenticated: true, loginRedirectDelayMs: CSRF_REDIRECT_DELAY_MS };
  }
  if (error.status === 401 && isLoginUrl(error.url)) {
    return { toast: shown, clearAuthenticated: true, loginRedirectDelayMs: 0 };
  }
  return { toast: shown, clearAuthenticated: false, loginRedirectDelayMs: null };
}
