import { describe, expect, it } from 'vitest';
import { isLoginUrl, mapApiError } from './api-error';

const APOLOGY =
  'Oops. We are so sorry. An unknown error occurred. Try reloading the page. Sometimes it helps.';

describe('mapApiError (spec section 8)', () => {
  it('toasts "Error {status}" for 10 s with the translated api.response-<code>', () => {
    const r = mapApiError({ status: 401, code: 2, message: 'bad', url: '/api/v1/core/user' }, 'en');
    expect(r.toast?.summary).toBe('Error 401');
    expect(r.toast?.life).toBe(10_000);
    expect(r.toast?.detail).toMatch(/Login failed/);
    expect(r.clearAuthenticated).toBe(false);
    expect(r.loginRedirectDelayMs).toBeNull();
  });
  it('translates into German', () => {
    const r = mapApiError({ status: 404, code: 404, url: '/api/v1/x' }, 'de');
    expect(r.toast?.summary).toBe('Fehler 404');
    expect(r.toast?.detail).toBe('Daten nicht gefunden.');
  });
  it('falls back to the message for an unknown code', () => {
    const r = mapApiError({ status: 418, code: 999_999, message: 'teapot', url: '/api/v1/x' }, 'en');
    expect(r.toast?.detail).toBe('teapot');
  });
  it('falls back to the apology without code and message', () => {
    const r = mapApiError({ status: 502, url: '/api/v1/x' }, 'en');
    expect(r.toast?.summary).toBe('Error 502');
    expect(r.toast?.detail).toBe(APOLOGY);
  });
  it('code 76 (not logged in) is silent', () => {
    const r = mapApiError({ status: 401, code: 76, url: '/api/v1/core/user' }, 'en');
    expect(r).toEqual({ toast: null, clearAuthenticated: false, loginRedirectDelayMs: null });
  });
  it('code 76 while the console believed it was signed in: still silent, flag false, to /login', () => {
    const r = mapApiError({ status: 401, code: 76, url: '/api/v1/core/users' }, 'en', true);
    expect(r).toEqual({ toast: null, clearAuthenticated: true, loginRedirectDelayMs: 0 });
  });
  it('code 77 (invalid CSRF) clears the flag and goes to /login after 3 s', () => {
    const r = mapApiError({ status: 419, code: 77, url: '/api/v1/core/users' }, 'en');
    expect(r.clearAuthenticated).toBe(true);
    expect(r.loginRedirectDelayMs).toBe(3000);
    expect(r.toast).not.toBeNull();
  });
  it('a 401 on a login URL clears the flag and goes to /login at once', () => {
    const r = mapApiError({ status: 401, code: 2, url: '/api/v1/auth/login' }, 'en');
    expect(r.clearAuthenticated).toBe(true);
    expect(r.loginRedirectDelayMs).toBe(0);
  });
  it('a 401 elsewhere does not redirect', () => {
    expect(
      mapApiError({ status: 401, code: 401, url: '/api/v1/core/users' }, 'en').loginRedirectDelayMs,
    ).toBeNull();
  });
});

describe('isLoginUrl', () => {
  it.each([
    ['/api/v1/auth/login', true],
    ['/api/v1/auth/login?x=1', true],
    ['/api/v1/auth/logout', false],
    ['/api/v1/core/user', false],
  ])('%s -> %s', (url, expected) => {
    expect(isLoginUrl(url)).toBe(expected);
  });
});
