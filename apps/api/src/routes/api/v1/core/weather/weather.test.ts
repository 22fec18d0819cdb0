import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@iot/config';
import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { createDevice, setCurrent } from '../../../../../test/device-fixtures';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

/** A Bright Sky stand-in: counts its calls, answers like /current_weather, or fails on demand. */
function startProvider() {
  const state = { calls: 0, fail: false };
  const server: Server = createServer((req, res) => {
    state.calls += 1;
    if (state.fail || !req.url?.startsWith('/current_weather')) {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=0' });
    res.end(
      JSON.stringify({
        weather: {
          timestamp: '2026-11-28T05:00:00+00:00',
          source_id: 7,
          temperature: 4.5,
          relative_humidity: 91,
          wind_speed_60: 12,
        },
        sources: [{ id: 7, station_name: 'Freiburg', dwd_station_id: '01443' }],
      }),
    );
  });
  return { server, state };
}

forEachDb((suite) => {
  const provider = startProvider();
  let withProvider: FastifyInstance;
  let withoutProvider: FastifyInstance;

  beforeAll(async () => {
    await new Promise<void>((resolve) => provider.server.listen(0, '127.0.0.1', resolve));
    const port = (provider.server.address() as AddressInfo).port;
    const config = {
      ...loadConfig({
        LOG_LEVEL: 'silent',
        WEATHER_PROVIDER_URL: `http://127.0.0.1:${port}`,
        WEATHER_STATION_RADIUS_KM: '5',
      }),
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    };
    withProvider = buildTestApp(suite.db, { config });
    withoutProvider = buildTestApp(suite.db);
    await Promise.all([withProvider.ready(), withoutProvider.ready()]);
  });
  afterAll(async () => {
    await Promise.all([withProvider?.close(), withoutProvider?.close()]);
    await new Promise((resolve) => provider.server.close(resolve));
  });

  async function signIn(app: FastifyInstance, email: string) {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  }

  describe('/core/weather', () => {
    it('takes fresh values of the nearest own station first and fills the rest from the provider', async () => {
      const team = await createTeam(suite.db);
      const now = new Date();
      const fresh = new Date(now.getTime() - 30 * 60_000).toISOString();
      const old = new Date(now.getTime() - 9 * 3600_000).toISOString();
      const near = await createDevice(suite.db, team.company.id, {
        device_type: 'nbiot_weatherstation',
        latitude: 48.042,
        longitude: 7.577,
      });
      await setCurrent(
        suite.db,
        team.company.id,
        near.id,
        { temperature: 7.25, rain_hourly: 0.4, humidity: 80 },
        { temperature: fresh, rain_hourly: fresh, humidity: old },
        now,
      );
      // Further away and another company's station: never used.
      const far = await createDevice(suite.db, team.company.id, {
        device_type: 'nbiot_weatherstation',
        latitude: 48.5,
        longitude: 7.6,
      });
      await setCurrent(
        suite.db,
        team.company.id,
        far.id,
        { temperature: 1, humidity: 50 },
        { temperature: fresh, humidity: fresh },
        now,
      );
      const other = await createTeam(suite.db);
      const foreign = await createDevice(suite.db, other.company.id, {
        device_type: 'nbiot_weatherstation',
        latitude: 48.0415,
        longitude: 7.5766,
      });
      await setCurrent(suite.db, other.company.id, foreign.id, { humidity: 10 }, { humidity: fresh }, now);

      const client = await signIn(withProvider, team.main.email);
      const res = await client.get('/api/v1/core/weather/?lat=48.041477&lng=7.576644');
      expect(res.status).toBe(200);
      const { values, reason, stale } = res.body.payload;
      expect(reason).toBeNull();
      expect(stale).toBe(false);
      expect(values.temperature).toMatchObject({
        value: 7.25,
        unit: '°C',
        observed_at: fresh,
        source: { kind: 'device', device_id: near.id },
      });
      expect(values.temperature.source.distance_m).toBeGreaterThan(0);
      expect(values.temperature.source.distance_m).toBeLessThan(200);
      expect(values.precipitation.source.device_id).toBe(near.id);
      // The station's humidity is 9 hours old (stale): the provider's value takes its place.
      expect(values.relative_humidity).toMatchObject({
        value: 91,
        observed_at: '2026-11-28T05:00:00.000Z',
        source: { kind: 'provider', provider: 'brightsky', station: 'Freiburg (DWD 01443)' },
      });
      expect(values.wind_speed.value).toBe(12);
    });

    it('serves the cached answer flagged stale when the provider fails, and a reason without anything', async () => {
      const team = await createTeam(suite.db);
      const client = await signIn(withProvider, team.main.email);
      provider.state.fail = false;
      const first = await client.get('/api/v1/core/weather?lat=50.1&lng=8.6');
      expect(first.body.payload.values.temperature.source.provider).toBe('brightsky');
      provider.state.fail = true;
      const cached = await client.get('/api/v1/core/weather?lat=50.1&lng=8.6');
      expect(cached.body.payload).toMatchObject({ stale: true, reason: null });
      expect(cached.body.payload.values.temperature.value).toBe(4.5);
      const nothing = await client.get('/api/v1/core/weather?lat=10&lng=10');
      expect(nothing.body.payload).toEqual({ values: {}, reason: 'provider_failed', stale: false });
      provider.state.fail = false;

      const offline = await signIn(withoutProvider, team.main.email);
      const none = await offline.get('/api/v1/core/weather?lat=48.04&lng=7.57');
      expect(none.status).toBe(200);
      expect(none.body.payload).toEqual({ values: {}, reason: 'no_station_no_provider', stale: false });
      const bad = await offline.get('/api/v1/core/weather?lat=91&lng=7');
      expect(bad.status).toBe(422);
    });
  });
});
