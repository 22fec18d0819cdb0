import type { InterfaceLanguage } from '../constants/session';
import { TOAST_LIFE_MS } from '../constants/session';
import { domainMessage } from '../i18n/messages';
import { apiResponseKey, ERRORS, errorByCode } from './catalogue';

export interface ErrorToast {
  severity: 'error';
  summary: string;
  detail: string;
  life: number;
}

/**
 * The toast for a failed call (spec section 8): summary "Error <status>", detail the translated
 * message for the API code, else the error message, else the generic apology; 10 s life.
 * Code 76 (not logged in) shows no toast: the session handling takes over.
 */
export function errorToast(
  status: number,
  body: { code?: unknown; message?: unknown } | null | undefined,
  language: InterfaceLanguage,
): ErrorToast | null {
  const code = typeof body?.code === 'number' ? body.code : undefined;
  if (code === ERRORS.NOT_LOGGED_IN.code) return null;
  const translated =
    code !== undefined && errorByCode(code) ? domainMessage(language, apiResponseKey(code)) : undefined;
  const message = typeof body?.message === 'string' && body.message !== '' ? body.message : undefined;
  return {
    severity: 'error',
    summary: domainMessage(language, 'message.error-summary', { status }) ?? `Error ${status}`,
    detail: translated ?? message ?? domainMessage(language, 'message.unknown-error') ?? '',
    life: TOAST_LIFE_MS,
  };
}
