import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { createDevice, createGroup, setCurrent } from '../../../../../test/device-fixtures';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

const HOUR = 60 * 60 * 1000;

forEachDb((suite) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  async function signIn(email: string) {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  }

  describe('GET /core/devices/current', () => {
    it('answers the latest values of many devices in one call, cut to the asked fields, with stale flags', async () => {
      const team = await createTeam(suite.db, { modules: ['map_view'] });
      const a = await createDevice(suite.db, team.company.id);
      const b = await createDevice(suite.db, team.company.id);
      const silent = await createDevice(suite.db, team.company.id);
      const now = Date.now();
      const fresh = new Date(now - HOUR).toISOString();
      // Spec section 4: older than 8 hours is stale.
      const old = new Date(now - 9 * HOUR).toISOString();
      await setCurrent(
        suite.db,
        team.company.id,
        a.id,
        { temperature: 21.5, humidity: 40 },
        { temperature: fresh, humidity: old },
        new Date(fresh),
      );
      await suite.db.query(
        'UPDATE device_current SET latitude = 48.1, longitude = 7.6 WHERE device_id = $1',
        [a.id],
      );
      await setCurrent(
        suite.db,
        team.company.id,
        b.id,
        { temperature: 19, co2: 800 },
        { temperature: old, co2: old },
        new Date(old),
      );
      const plain = await signIn(team.plain.email);

      const res = await plain.get(
        `/api/v1/core/devices/current?ids=${b.id},${a.id},${silent.id},${a.id}&data_fields=temperature,humidity`,
      );
      expect(res.status).toBe(200);
      expect(res.body.payload).toEqual({
        devices: [
          {
            device_id: a.id,
            updated_at: fresh,
            data: { temperature: 21.5, humidity: 40 },
            field_times: { temperature: fresh, humidity: old },
            stale: { temperature: false, humidity: true },
            geo: [48.1, 7.6],
          },
          {
            device_id: b.id,
            updated_at: old,
            data: { temperature: 19 },
            field_times: { temperature: old },
            stale: { temperature: true },
            geo: null,
          },
          { device_id: silent.id, updated_at: null, data: {}, field_times: {}, stale: {}, geo: null },
        ],
        missing: [],
      });
      const all = await plain.get(`/api/v1/core/devices/current?ids=${b.id}`);
      expect(all.body.payload.devices[0].data).toEqual({ temperature: 19, co2: 800 });
    });

    it("treats another company's device ids like unknown ones: listed as missing, none of their values", async () => {
      const team = await createTeam(suite.db, { modules: ['map_view'] });
      const other = await createTeam(suite.db, { modules: ['map_view'] });
      const mine = await createDevice(suite.db, team.company.id);
      const theirs = await createDevice(suite.db, other.company.id);
      await setCurrent(suite.db, other.company.id, theirs.id, { secret: 42 }, {}, new Date());
      const main = await signIn(team.main.email);
      const res = await main.get(`/api/v1/core/devices/current?ids=${theirs.id},${mine.id},999999999`);
      expect(res.body.payload.devices.map((d: { device_id: number }) => d.device_id)).toEqual([mine.id]);
      expect(res.body.payload.missing).toEqual([theirs.id, 999999999].sort((x, y) => x - y));
      expect(JSON.stringify(res.body)).not.toContain('secret');
    });

    it.each([
      ['', 'no ids'],
      ['ids=', 'empty ids'],
      ['ids=1;2', 'bad separator'],
      ['ids=a', 'not a number'],
      ['ids=1&data_fields=a;drop', 'bad field name'],
      [`ids=${Array.from({ length: 1001 }, (_, i) => i + 1).join(',')}`, 'more than 1000 ids'],
    ])('refuses %s (%s) with 422', async (query) => {
      const team = await createTeam(suite.db, { modules: ['map_view'] });
      const main = await signIn(team.main.email);
      const res = await main.get(`/api/v1/core/devices/current?${query}`);
      expect([res.status, res.body.code]).toEqual([422, 422]);
    });

    it('is not captured by /core/devices/{id}, which still answers devices', async () => {
      const team = await createTeam(suite.db, { modules: ['map_view'] });
      const device = await createDevice(suite.db, team.company.id);
      const main = await signIn(team.main.email);
      expect((await main.get(`/api/v1/core/devices/${device.id}`)).body.payload.id).toBe(device.id);
      expect((await main.get(`/api/v1/core/devices/current?ids=${device.id}`)).body.payload.missing).toEqual(
        [],
      );
      expect((await main.get('/api/v1/core/devices/positions')).status).toBe(200);
    });

    it('keeps the map data (positions, view=map) to the map view module: 27 without it (issue #27)', async () => {
      const team = await createTeam(suite.db);
      const main = await signIn(team.main.email);
      for (const path of ['/api/v1/core/devices/positions', '/api/v1/core/devices?view=map']) {
        const res = await main.get(path);
        expect([res.status, res.body.code, res.body.details], path).toEqual([
          403,
          27,
          { module: 'map_view' },
        ]);
      }
      expect((await main.get('/api/v1/core/devices')).status).toBe(200);
    });
  });

  describe('GET /core/devices/positions', () => {
    it('answers compact positions of the devices that have one; a reported position wins', async () => {
      const team = await createTeam(suite.db, { modules: ['map_view'] });
      const other = await createTeam(suite.db, { modules: ['map_view'] });
      const group = await createGroup(suite.db, team.company.id, 'Feld');
      const fixed = await createDevice(suite.db, team.company.id, {
        name: 'Pegel',
        latitude: 48.04,
        longitude: 7.57,
        state: 'maintenance',
        is_active: true,
        battery_level: 55,
        group_id: group,
        last_online_at: new Date('2026-03-01T10:00:00Z'),
      });
      const tracker = await createDevice(suite.db, team.company.id, {
        name: 'Tracker',
        latitude: 1,
        longitude: 1,
      });
      await setCurrent(suite.db, team.company.id, tracker.id, { temperature: 4 }, {}, new Date());
      await suite.db.query(
        'UPDATE device_current SET latitude = 48.2, longitude = 7.8 WHERE device_id = $1',
        [tracker.id],
      );
      await createDevice(suite.db, team.company.id, { name: 'Nowhere' });
      await createDevice(suite.db, other.company.id, { name: 'Theirs', latitude: 50, longitude: 8 });
      const plain = await signIn(team.plain.email);

      const res = await plain.get('/api/v1/core/devices/positions');
      expect(res.status).toBe(200);
      expect(res.body.payload).toEqual([
        {
          id: fixed.id,
          name: 'Pegel',
          latitude: 48.04,
          longitude: 7.57,
          state: 'maintenance',
          is_active: true,
          battery_level: 55,
          mains_powered: false,
          last_online_at: '2026-03-01T10:00:00.000Z',
          group_id: group,
        },
        {
          id: tracker.id,
          name: 'Tracker',
          latitude: 48.2,
          longitude: 7.8,
          state: 'ok',
          is_active: false,
          battery_level: null,
          mains_powered: false,
          last_online_at: null,
          group_id: null,
        },
      ]);
      const byGroup = await plain.get(`/api/v1/core/devices/positions?group_id=${group}`);
      expect(byGroup.body.payload.map((p: { id: number }) => p.id)).toEqual([fixed.id]);
      const byIds = await plain.get(
        `/api/v1/core/devices/positions?ids=${tracker.id}&data_field=temperature`,
      );
      expect(byIds.body.payload).toEqual([expect.objectContaining({ id: tracker.id, value: 4 })]);
      const withValue = await plain.get('/api/v1/core/devices/positions?data_field=temperature');
      expect(withValue.body.payload.map((p: { value: unknown }) => p.value)).toEqual([null, 4]);
    });
  });
});
