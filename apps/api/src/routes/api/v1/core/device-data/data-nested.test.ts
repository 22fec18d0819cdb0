/**
 * Nested data a codec returned (issue 23): stored flat under dotted names, answered by the data routes as
 * the codec shaped it, or flat with `shape=flat` (what the console charts).
 */
import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice, insertData, setCurrent } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { useRouteApp } from '../../../../../test/route-suite';

const STORED = {
  temperature: 21.5,
  'alarm.level': 2,
  'alarm.on': true,
  'history.0.t': 20,
  'history.1.t': 21,
};
const SHAPED = { temperature: 21.5, alarm: { level: 2, on: true }, history: [{ t: 20 }, { t: 21 }] };

forEachDb((suite) => {
  const { signIn } = useRouteApp(suite);

  async function setup() {
    const team = await createTeam(suite.db);
    const device = await createDevice(suite.db, team.company.id);
    const at = new Date(Date.now() - 60_000);
    await insertData(suite.db, team.company.id, device.id, [{ at, data: STORED }]);
    const times = Object.fromEntries(Object.keys(STORED).map((k) => [k, at.toISOString()]));
    await setCurrent(suite.db, team.company.id, device.id, STORED, times, at);
    return { device, client: await signIn(team.plain.email) };
  }

  describe('nested data in the data routes', () => {
    it('answers points as the codec shaped them, and flat on request', async () => {
      const { device, client } = await setup();
      const nested = await client.get(`/api/v1/core/data/${device.id}`);
      expect(nested.status).toBe(200);
      expect(nested.body.payload.points.map((p: { data: unknown }) => p.data)).toEqual([SHAPED]);
      const last = await client.get(`/api/v1/core/data/${device.id}?last_record=true`);
      expect(last.body.payload.points[0].data).toEqual(SHAPED);
      const flat = await client.get(`/api/v1/core/data/${device.id}?shape=flat`);
      expect(flat.body.payload.points.map((p: { data: unknown }) => p.data)).toEqual([STORED]);
      // A stored name picks a part of the shape.
      const part = await client.get(`/api/v1/core/data/${device.id}?data_fields=alarm.level,temperature`);
      expect(part.body.payload.points[0].data).toEqual({ temperature: 21.5, alarm: { level: 2 } });
      const bad = await client.get(`/api/v1/core/data/${device.id}?shape=tree`);
      expect(bad.status).toBe(422);
    });

    it('answers latest values as the codec shaped them; times and stale flags by stored name', async () => {
      const { device, client } = await setup();
      const nested = await client.get(`/api/v1/core/data/${device.id}/current`);
      expect(nested.body.payload.data).toEqual(SHAPED);
      expect(Object.keys(nested.body.payload.field_times).sort()).toEqual(Object.keys(STORED).sort());
      const flat = await client.get(`/api/v1/core/data/${device.id}/current?shape=flat`);
      expect(flat.body.payload.data).toEqual(STORED);
    });
  });
});
