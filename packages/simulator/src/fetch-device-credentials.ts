/**
 * Gets device tokens the way a person does in the console: sign in (CSRF cookie first), list the company's
 * devices, and issue a new token for each of the first `count` devices. Issuing replaces the device's
 * previous token (only ROLE_ADMIN / ROLE_MAINUSER may), which is why the CLI warns before it does so.
 */
import { canSimulate, type SimDevice } from './build-uplink.js';

interface ApiAnswer {
  status: number;
  body: { payload?: unknown; code?: number; message?: string };
}

class CookieClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly signal?: AbortSignal,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
    };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf && method !== 'GET') headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: this.signal,
    });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: ApiAnswer['body'] = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { message: text.slice(0, 200) };
    }
    return { status: response.status, body: parsed };
  }
}

export class ApiError extends Error {
  constructor(
    readonly step: string,
    readonly status: number,
    readonly code: number | undefined,
    message: string | undefined,
  ) {
    super(
      `${step}: HTTP ${status}${code === undefined ? '' : ` code ${code}`}${message ? ` (${message})` : ''}`,
    );
    this.name = 'ApiError';
  }
}

function check(step: string, answer: ApiAnswer): unknown {
  if (answer.status >= 200 && answer.status < 300) return answer.body.payload;
  throw new ApiError(step, answer.status, answer.body.code, answer.body.message);
}

interface ListedDevice {
  id: number;
  uuid: string;
  name: string;
  device_type: string | null;
  driver_id: string | null;
  state: string;
}

export interface FetchCredentialsOptions {
  /** Base URL of the API (the console's origin), e.g. http://localhost:8080. */
  url: string;
  email: string;
  password: string;
  /** How many devices (the first by id that can send: not disposed). */
  count: number;
  signal?: AbortSignal;
}

export interface FetchedCredentials {
  devices: SimDevice[];
  /** Devices passed over because ingest could not decode their uplinks (see `canSimulate`). */
  skipped: Array<{ id: number; name: string; driver_id: string | null }>;
}

export async function fetchDeviceCredentials(options: FetchCredentialsOptions): Promise<FetchedCredentials> {
  const api = new CookieClient(options.url, options.signal);
  check('CSRF cookie', await api.call('GET', '/sanctum/csrf-cookie'));
  check(
    'sign in',
    await api.call('POST', '/api/v1/auth/login', { email: options.email, password: options.password }),
  );
  const listed = check(
    'list devices',
    await api.call('GET', '/api/v1/core/devices?limit=100000'),
  ) as ListedDevice[];
  // Disposed devices are refused by ingest (404, CONNACK 4); they cannot send.
  const live = listed.filter((d) => d.state !== 'disposed').sort((a, b) => a.id - b.id);
  const chosen = live.filter(canSimulate).slice(0, options.count);
  const last = chosen.at(-1)?.id ?? Number.POSITIVE_INFINITY;
  const skipped = live
    .filter((d) => !canSimulate(d) && d.id < last)
    .map(({ id, name, driver_id }) => ({ id, name, driver_id }));
  const devices: SimDevice[] = [];
  for (const d of chosen) {
    const payload = check(
      `new token for device ${d.id}`,
      await api.call('POST', `/api/v1/core/devices/${d.id}/credentials`, {}),
    ) as { token: string };
    devices.push({
      id: d.id,
      uuid: d.uuid,
      name: d.name,
      device_type: d.device_type,
      driver_id: d.driver_id,
      token: payload.token,
    });
  }
  return { devices, skipped };
}
