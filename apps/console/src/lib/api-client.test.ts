import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toast } from 'sonner';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
// Imported before any browser global is stubbed (sonner injects CSS when a document exists).
import { api, setApiNavigator } from './api-client';
import { ApiError } from './api-error';
import { languageReady, setLanguage } from './i18n';

/**
 * The real API client against a real HTTP server on a free port: the browser globals it needs
 * (cookie jar, session storage) are provided, relative URLs are sent to the server.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base = '';
const seen: Seen[] = [];

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  // The strings of a language are loaded on demand (i18n.ts); the expected texts are English.
  setLanguage('en');
  await languageReady();
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = req.url ?? '';
      if (url === '/sanctum/csrf-cookie') return reply(res, 200, { payload: null });
      if (url === '/api/v1/core/version') return reply(res, 200, { payload: { version: '1234567890' } });
      if (url === '/api/v1/echo') return reply(res, 200, { payload: { got: JSON.parse(body || 'null') } });
      if (url === '/api/v1/fail/2') return reply(res, 401, { code: 2, message: 'login failed' });
      if (url === '/api/v1/auth/login') return reply(res, 401, { code: 2, message: 'login failed' });
      if (url === '/api/v1/fail/76') return reply(res, 401, { code: 76, message: 'not logged in' });
      if (url === '/api/v1/fail/77') return reply(res, 419, { code: 77, message: 'csrf' });
      if (url === '/api/v1/fail/plain') return reply(res, 500, {});
      return reply(res, 404, { code: 404, message: 'nope' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const storage = new Map<string, string>();
const realFetch = globalThis.fetch;

beforeEach(() => {
  seen.length = 0;
  storage.clear();
  vi.stubGlobal('document', { cookie: 'other=1; XSRF-TOKEN=tok%3D123' });
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => storage.set(k, v),
  });
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => realFetch(`${base}${input}`, init));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function client() {
  const navigations: string[] = [];
  setApiNavigator((path) => navigations.push(path));
  const toasts = () =>
    toast
      .getHistory()
      .map((t) => ('title' in t ? { title: t.title, description: t.description, duration: t.duration } : {}));
  return { api, navigations, toasts };
}

describe('api client (spec sections 7 and 8)', () => {
  it('unwraps the payload and marks the request as XHR with credentials', async () => {
    const { api } = await client();
    await expect(api('/core/version')).resolves.toEqual({ version: '1234567890' });
    expect(seen[0]?.headers['x-requested-with']).toBe('XMLHttpRequest');
  });

  it('sends the XSRF-TOKEN cookie back as X-XSRF-TOKEN with a JSON body', async () => {
    const { api } = await client();
    await expect(api('/echo', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ got: { a: 1 } });
    expect(seen[0]?.headers['x-xsrf-token']).toBe('tok=123');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
  });

  it('fetches the CSRF cookie first when it is missing for a mutating call', async () => {
    vi.stubGlobal('document', { cookie: '' });
    const { api } = await client();
    await api('/echo', { method: 'PUT', body: {} });
    expect(seen.map((s) => s.url)).toEqual(['/sanctum/csrf-cookie', '/api/v1/echo']);
  });

  it('a failure toasts "Error {status}" for 10 s with the catalogue text and rejects', async () => {
    const { api, toasts } = await client();
    const before = toasts().length;
    await expect(api('/fail/2')).rejects.toBeInstanceOf(ApiError);
    const last = toasts().slice(before).at(-1);
    expect(last).toMatchObject({ title: 'Error 401', duration: 10_000 });
    expect(String(last?.description)).toMatch(/Login failed/);
  });

  it('code 76 is silent', async () => {
    const { api, toasts, navigations } = await client();
    const before = toasts().length;
    await expect(api('/fail/76')).rejects.toMatchObject({ code: 76 });
    expect(toasts().length).toBe(before);
    expect(navigations).toEqual([]);
  });

  it('code 77 sets the flag false and goes to /login after 3 s', async () => {
    storage.set('authenticated', 'true');
    const { api, navigations } = await client();
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    await expect(api('/fail/77')).rejects.toMatchObject({ code: 77 });
    expect(storage.get('authenticated')).toBe('false');
    vi.advanceTimersByTime(2999);
    expect(navigations).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(navigations).toEqual(['/login']);
  });

  it('a 401 on the login URL sets the flag false and goes to /login', async () => {
    storage.set('authenticated', 'true');
    const { api, navigations } = await client();
    await expect(api('/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 401 });
    expect(storage.get('authenticated')).toBe('false');
    expect(navigations).toEqual(['/login']);
  });

  it('without code and message the detail is the apology', async () => {
    const { api, toasts } = await client();
    await expect(api('/fail/plain')).rejects.toMatchObject({ status: 500 });
    const last = toasts().at(-1);
    expect(String(last?.description)).toMatch(/^Oops\. We are so sorry\./);
  });
});
