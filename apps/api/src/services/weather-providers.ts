/**
 * Weather providers behind one interface (issue 24, research §4): Bright Sky (DWD observations, no key)
 * and Open-Meteo. Each answer is cached per rounded coordinate until the provider's own expiry
 * (Cache-Control max-age or Expires, else 10 minutes); after a failed refresh the cached answer is served
 * flagged stale.
 */
export interface ProviderValue {
  value: number;
  unit: string;
  observed_at: string;
  station?: string;
}

export interface ProviderAnswer {
  provider: string;
  values: Record<string, ProviderValue>;
}

export interface WeatherProvider {
  current(lat: number, lng: number): Promise<{ answer: ProviderAnswer; stale: boolean } | null>;
}

const DEFAULT_TTL_MS = 10 * 60 * 1000;
const TIMEOUT_MS = 5000;

function expiryOf(res: Response, now: number): number {
  const maxAge = /max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1];
  if (maxAge) return now + Number(maxAge) * 1000;
  const expires = Date.parse(res.headers.get('expires') ?? '');
  return Number.isFinite(expires) && expires > now ? expires : now + DEFAULT_TTL_MS;
}

function put(
  values: Record<string, ProviderValue>,
  key: string,
  value: unknown,
  unit: string,
  at: string,
  station?: string,
) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return;
  values[key] = { value, unit, observed_at: new Date(at).toISOString(), ...(station ? { station } : {}) };
}

interface BrightSkyBody {
  weather?: Record<string, unknown> & { timestamp?: string; source_id?: number };
  sources?: Array<{ id: number; station_name?: string; dwd_station_id?: string }>;
}

/** Bright Sky's /current_weather: the nearest DWD station's latest observation. */
function parseBrightSky(body: BrightSkyBody): ProviderAnswer {
  const w = body.weather ?? {};
  const source = body.sources?.find((s) => s.id === w.source_id) ?? body.sources?.[0];
  const station = source
    ? `${source.station_name ?? ''} (DWD ${source.dwd_station_id ?? source.id})`.trim()
    : undefined;
  const at = typeof w.timestamp === 'string' ? w.timestamp : new Date().toISOString();
  const values: Record<string, ProviderValue> = {};
  put(values, 'temperature', w.temperature, '°C', at, station);
  put(values, 'relative_humidity', w.relative_humidity, '%', at, station);
  put(values, 'precipitation', w.precipitation_60 ?? w.precipitation_10, 'mm', at, station);
  put(values, 'wind_speed', w.wind_speed_60 ?? w.wind_speed_10, 'km/h', at, station);
  put(values, 'wind_direction', w.wind_direction_60 ?? w.wind_direction_10, '°', at, station);
  put(values, 'pressure', w.pressure_msl, 'hPa', at, station);
  return { provider: 'brightsky', values };
}

/** Open-Meteo's /v1/forecast with `current=`: a model value for the point. */
type OpenMeteoBody = { current?: Record<string, unknown> & { time?: string } };

function parseOpenMeteo(body: OpenMeteoBody): ProviderAnswer {
  const c = body.current ?? {};
  const at = typeof c.time === 'string' ? `${c.time}Z`.replace(/ZZ$/, 'Z') : new Date().toISOString();
  const values: Record<string, ProviderValue> = {};
  put(values, 'temperature', c.temperature_2m, '°C', at);
  put(values, 'relative_humidity', c.relative_humidity_2m, '%', at);
  put(values, 'precipitation', c.precipitation, 'mm', at);
  put(values, 'wind_speed', c.wind_speed_10m, 'km/h', at);
  put(values, 'wind_direction', c.wind_direction_10m, '°', at);
  put(values, 'pressure', c.surface_pressure, 'hPa', at);
  put(values, 'uv_index', c.uv_index, '', at);
  return { provider: 'open-meteo', values };
}

function requestUrl(kind: 'brightsky' | 'open-meteo', base: string, lat: number, lng: number): string {
  const root = base.replace(/\/+$/, '');
  if (kind === 'brightsky') return `${root}/current_weather?lat=${lat}&lon=${lng}`;
  const current =
    'temperature_2m,relative_humidity_2m,precipitation,wind_speed_10m,wind_direction_10m,surface_pressure,uv_index';
  return `${root}/v1/forecast?latitude=${lat}&longitude=${lng}&current=${current}&timezone=UTC`;
}

export function createWeatherProvider(kind: 'brightsky' | 'open-meteo', baseUrl: string): WeatherProvider {
  const cache = new Map<string, { answer: ProviderAnswer; expires: number }>();
  return {
    async current(lat, lng) {
      // About 1 km: close enough for the weather, and it keeps the cache small (research §4: round coordinates).
      const [rlat, rlng] = [Math.round(lat * 100) / 100, Math.round(lng * 100) / 100];
      const key = `${rlat},${rlng}`;
      const now = Date.now();
      const cached = cache.get(key);
      if (cached && cached.expires > now) return { answer: cached.answer, stale: false };
      try {
        const res = await fetch(requestUrl(kind, baseUrl, rlat, rlng), {
          signal: AbortSignal.timeout(TIMEOUT_MS),
          headers: { accept: 'application/json' },
        });
        if (!res.ok) throw new Error(`weather provider answered ${res.status}`);
        const body = await res.json();
        const answer =
          kind === 'brightsky'
            ? parseBrightSky(body as BrightSkyBody)
            : parseOpenMeteo(body as OpenMeteoBody);
        cache.set(key, { answer, expires: expiryOf(res, now) });
        return { answer, stale: false };
      } catch {
        return cached ? { answer: cached.answer, stale: true } : null;
      }
    },
  };
}
