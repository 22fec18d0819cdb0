import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWeatherProvider } from './weather-providers';

/** An Open-Meteo stand-in: answers /v1/forecast with `current=` as api.open-meteo.com does, or fails. */
function startOpenMeteo() {
  const state = { requests: [] as URL[], fail: false };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    state.requests.push(url);
    if (state.fail || url.pathname !== '/v1/forecast') {
      res.writeHead(502).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=0' });
    res.end(
      JSON.stringify({
        latitude: Number(url.searchParams.get('latitude')),
        longitude: Number(url.searchParams.get('longitude')),
        utc_offset_seconds: 0,
        timezone: 'GMT',
        current_units: { time: 'iso8601', temperature_2m: '°C' },
        current: {
          time: '2026-11-28T08:00',
          interval: 900,
          temperature_2m: 3.4,
          relative_humidity_2m: 88,
          precipitation: 0.2,
          wind_speed_10m: 9.7,
          wind_direction_10m: 240,
          surface_pressure: 978.5,
          uv_index: 0.35,
        },
      }),
    );
  });
  return { server, state };
}

describe('Open-Meteo weather provider', () => {
  const standIn = startOpenMeteo();
  let base = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(standIn.server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => standIn.server.close(resolve)));

  it('asks /v1/forecast for the current values at the rounded point and maps them with units', async () => {
    const provider = createWeatherProvider('open-meteo', base);
    const result = await provider.current(48.041477, 7.576644);
    const request = standIn.state.requests.at(-1)!;
    expect(request.pathname).toBe('/v1/forecast');
    expect(request.searchParams.get('latitude')).toBe('48.04');
    expect(request.searchParams.get('longitude')).toBe('7.58');
    expect(request.searchParams.get('timezone')).toBe('UTC');
    expect(request.searchParams.get('current')?.split(',')).toEqual(
      expect.arrayContaining(['temperature_2m', 'relative_humidity_2m', 'precipitation', 'uv_index']),
    );
    expect(result).toEqual({
      stale: false,
      answer: {
        provider: 'open-meteo',
        values: {
          temperature: { value: 3.4, unit: '°C', observed_at: '2026-11-28T08:00:00.000Z' },
          relative_humidity: { value: 88, unit: '%', observed_at: '2026-11-28T08:00:00.000Z' },
          precipitation: { value: 0.2, unit: 'mm', observed_at: '2026-11-28T08:00:00.000Z' },
          wind_speed: { value: 9.7, unit: 'km/h', observed_at: '2026-11-28T08:00:00.000Z' },
          wind_direction: { value: 240, unit: '°', observed_at: '2026-11-28T08:00:00.000Z' },
          pressure: { value: 978.5, unit: 'hPa', observed_at: '2026-11-28T08:00:00.000Z' },
          uv_index: { value: 0.35, unit: '', observed_at: '2026-11-28T08:00:00.000Z' },
        },
      },
    });
  });

  it('serves its last answer flagged stale when the provider fails, and null with nothing cached', async () => {
    const provider = createWeatherProvider('open-meteo', base);
    standIn.state.fail = false;
    const first = await provider.current(50.1, 8.6);
    expect(first?.stale).toBe(false);
    standIn.state.fail = true;
    const before = standIn.state.requests.length;
    const cached = await provider.current(50.1, 8.6);
    // max-age=0: the cached answer had expired, so the provider was asked again and failed.
    expect(standIn.state.requests.length).toBe(before + 1);
    expect(cached).toEqual({ stale: true, answer: first?.answer });
    expect(await provider.current(10, 10)).toBeNull();
    standIn.state.fail = false;
  });
});
