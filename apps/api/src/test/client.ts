/**
 * A browser-like client over `app.inject`: keeps cookies, fetches the CSRF cookie and echoes it as
 * X-XSRF-TOKEN the way the console's HTTP client does.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';

export interface Answer<T = unknown> {
  status: number;
  body: T;
  cookies: {
    name: string;
    value: string;
    httpOnly?: boolean;
    sameSite?: string;
    secure?: boolean;
    path?: string;
  }[];
  headers: Record<string, unknown>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class TestClient {
  readonly jar = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly ip = '127.0.0.1',
  ) {}

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = any>(
    method: Method,
    url: string,
    body?: unknown,
    options: { csrf?: boolean | string; headers?: Record<string, string> } = {},
  ): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.jar.size > 0) headers.cookie = this.cookieHeader();
    const csrf = options.csrf ?? true;
    if (typeof csrf === 'string') headers['x-xsrf-token'] = csrf;
    else if (csrf && this.jar.has('XSRF-TOKEN')) headers['x-xsrf-token'] = this.jar.get('XSRF-TOKEN')!;
    const inject: InjectOptions = { method, url, headers, remoteAddress: this.ip };
    if (body !== undefined) inject.payload = body as InjectOptions['payload'];
    const res = await this.app.inject(inject);
    for (const cookie of res.cookies as Answer['cookies'] & { expires?: Date }[]) {
      const expired =
        (cookie as { expires?: Date }).expires &&
        (cookie as { expires?: Date }).expires!.getTime() < Date.now();
      if (cookie.value === '' || expired) this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
    let parsed: unknown = res.body;
    try {
      parsed = res.body ? JSON.parse(res.body) : null;
    } catch {
      // Not JSON (docs page, console files): keep the text.
    }
    return {
      status: res.statusCode,
      body: parsed as T,
      cookies: res.cookies as Answer['cookies'],
      headers: res.headers,
    };
  }

  get<T = any>(url: string, options?: { csrf?: boolean | string }) {
    return this.request<T>('GET', url, undefined, options);
  }
  post<T = any>(url: string, body?: unknown, options?: { csrf?: boolean | string }) {
    return this.request<T>('POST', url, body ?? {}, options);
  }
  put<T = any>(url: string, body?: unknown, options?: { csrf?: boolean | string }) {
    return this.request<T>('PUT', url, body ?? {}, options);
  }
  delete<T = any>(url: string, options?: { csrf?: boolean | string }) {
    return this.request<T>('DELETE', url, undefined, options);
  }

  async csrf(): Promise<string> {
    const res = await this.get('/sanctum/csrf-cookie');
    if (res.status !== 200) throw new Error(`csrf-cookie answered ${res.status}`);
    return this.jar.get('XSRF-TOKEN')!;
  }

  /** Fetches the CSRF cookie and signs in; throws unless the login succeeds. */
  async login(email: string, password: string) {
    await this.csrf();
    const res = await this.post('/api/v1/auth/login', { email, password });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }
}
