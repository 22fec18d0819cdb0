/**
 * A browser-like API client for cross-app tests: keeps cookies, fetches the CSRF cookie first and sends it
 * back as X-XSRF-TOKEN on mutating calls, exactly as the console does.
 */
export interface ApiResponse<T = unknown> {
  status: number;
  body: { payload?: T; code?: number; message?: string } & Record<string, unknown>;
}

export class ApiSession {
  private readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async csrf(): Promise<void> {
    await this.raw('GET', '/sanctum/csrf-cookie');
  }

  async login(email: string, password: string): Promise<ApiResponse> {
    await this.csrf();
    return this.call('POST', '/api/v1/auth/login', { email, password });
  }

  /** A JSON call under /api/v1 (or any absolute path given). */
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    const response = await this.raw(method, path, body);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  }

  /** A call with a body of another type than JSON (a CSV import). */
  async send<T = unknown>(
    method: string,
    path: string,
    text: string,
    contentType: string,
  ): Promise<ApiResponse<T>> {
    const response = await this.raw(method, path, text, contentType);
    const answer = await response.text();
    return { status: response.status, body: answer ? JSON.parse(answer) : {} };
  }

  private async raw(method: string, path: string, body?: unknown, contentType?: string): Promise<Response> {
    const headers: Record<string, string> = {
      'x-requested-with': 'XMLHttpRequest',
      accept: 'application/json',
    };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf && method !== 'GET') headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (body !== undefined) headers['content-type'] = contentType ?? 'application/json';
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      body: body === undefined ? undefined : contentType ? String(body) : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}
