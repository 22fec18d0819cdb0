import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createTeam } from '../../../../../test/fixtures';
import { BASE, useDashboardsSuite, VIRTUAL } from './dashboards-test-setup';

forEachDb((suite) => {
  const { signIn, world, widget, storedLayout } = useDashboardsSuite(suite);

  describe('/core/company/dashboards', () => {
    it('creates a dashboard with widgets, lists it, reads it and deletes it', async () => {
      const { team, d1, d2, main, dashboard } = await world();
      expect(dashboard).toMatchObject({ name: 'Übersicht', position: 0, created_by: team.main.id });
      expect(dashboard.widgets.map((w: { type: string }) => w.type)).toEqual(['table', 'line_chart', 'map']);
      expect(dashboard.widgets[0].settings).toEqual({
        device_ids: [d1.id, d2.id],
        data_fields: ['temperature', 'humidity'],
      });
      expect(dashboard.widgets[1].settings).toEqual({
        series: [{ device_id: d1.id, data_field: VIRTUAL }],
        range: '1w',
        tab: 'week',
      });
      // Settings are stored normalised: a map without device_ids has an empty list (all devices).
      expect(dashboard.widgets[2]).toMatchObject({
        x: 0,
        y: 5,
        w: 12,
        h: 6,
        settings: { color_by: 'state', device_ids: [] },
      });

      const second = await main.post(BASE, { name: 'Zweites' });
      expect(second.body.payload).toMatchObject({ position: 1, widgets: [] });
      const list = await main.get(BASE);
      expect(list.body.payload.map((d: { name: string }) => d.name)).toEqual(['Übersicht', 'Zweites']);
      expect(list.body.payload[0]).toEqual(dashboard);
      expect((await main.get(`${BASE}/${dashboard.id}`)).body.payload).toEqual(dashboard);

      const deleted = await main.delete(`${BASE}/${dashboard.id}`);
      expect(deleted.body).toEqual({ payload: { id: dashboard.id } });
      expect(await storedLayout(dashboard.id)).toEqual([]);
      const gone = await main.get(`${BASE}/${dashboard.id}`);
      expect([gone.status, gone.body.code]).toEqual([404, 96]);
    });

    it('replaces the layout with PUT; a reload shows it exactly as saved', async () => {
      const { d2, main, dashboard } = await world();
      const layout = [
        widget(
          'map',
          { color_by: 'field', data_field: 'battery_level', device_ids: [d2.id] },
          { x: 3, y: 0, w: 9, h: 8 },
        ),
        widget(
          'line_chart',
          {
            series: [{ device_id: d2.id, data_field: 'temperature' }],
            range: { tsstart: '2026-01-01T00:00:00Z', tsend: 1767312000000 },
            tab: 'range',
          },
          { x: 0, y: 8, w: 12, h: 4 },
        ),
      ];
      const put = await main.put(`${BASE}/${dashboard.id}`, { name: 'Neu', widgets: layout });
      expect(put.status).toBe(200);
      const reloaded = await main.get(`${BASE}/${dashboard.id}`);
      expect(reloaded.body.payload).toEqual(put.body.payload);
      expect(reloaded.body.payload.name).toBe('Neu');
      expect(await storedLayout(dashboard.id)).toEqual([
        {
          type: 'map',
          title: 'map widget',
          x: 3,
          y: 0,
          w: 9,
          h: 8,
          settings: { color_by: 'field', data_field: 'battery_level', device_ids: [d2.id] },
        },
        {
          type: 'line_chart',
          title: 'line_chart widget',
          x: 0,
          y: 8,
          w: 12,
          h: 4,
          settings: {
            series: [{ device_id: d2.id, data_field: 'temperature' }],
            range: { tsstart: '2026-01-01T00:00:00.000Z', tsend: '2026-01-02T00:00:00.000Z' },
            tab: 'range',
          },
        },
      ]);
      // Without widgets a PUT keeps the layout; an empty list clears it.
      await main.put(`${BASE}/${dashboard.id}`, { name: 'Umbenannt' });
      expect(await storedLayout(dashboard.id)).toHaveLength(2);
      await main.put(`${BASE}/${dashboard.id}`, { widgets: [] });
      expect(await storedLayout(dashboard.id)).toEqual([]);
    });

    it('refuses a map widget without the map view module (27); other widgets save (issue #27)', async () => {
      const team = await createTeam(suite.db);
      const main = await signIn(team.main.email);
      const map = await main.post(BASE, { name: 'Karte', widgets: [widget('map', { color_by: 'state' })] });
      expect([map.status, map.body.code, map.body.details]).toEqual([403, 27, { module: 'map_view' }]);
      const plain = await main.post(BASE, { name: 'Leer', widgets: [] });
      expect(plain.status).toBe(200);
      const put = await main.put(`${BASE}/${plain.body.payload.id}`, {
        widgets: [widget('map', { color_by: 'state' })],
      });
      expect(put.body.code).toBe(27);
      expect(await storedLayout(plain.body.payload.id)).toEqual([]);
    });

    it('lets every user of the company read, but only admins and main users edit (90006)', async () => {
      const { team, main, dashboard } = await world();
      const plain = await signIn(team.plain.email);
      expect((await plain.get(BASE)).body.payload.map((d: { id: number }) => d.id)).toEqual([dashboard.id]);
      expect((await plain.get(`${BASE}/${dashboard.id}`)).body.payload).toEqual(dashboard);
      for (const res of [
        await plain.post(BASE, { name: 'Mine' }),
        await plain.put(`${BASE}/${dashboard.id}`, { name: 'Renamed', widgets: [] }),
        await plain.delete(`${BASE}/${dashboard.id}`),
      ]) {
        expect([res.status, res.body.code]).toEqual([403, 90006]);
      }
      const admin = await signIn(team.admin.email);
      expect((await admin.put(`${BASE}/${dashboard.id}`, { name: 'By admin' })).status).toBe(200);
      expect((await main.get(BASE)).body.payload.map((d: { name: string }) => d.name)).toEqual(['By admin']);
    });

    it("answers 96 for another company's dashboard on every route and changes nothing", async () => {
      const { dashboard } = await world();
      const before = await storedLayout(dashboard.id);
      const other = await createTeam(suite.db);
      const outsider = await signIn(other.main.email);
      expect((await outsider.get(BASE)).body.payload).toEqual([]);
      for (const res of [
        await outsider.get(`${BASE}/${dashboard.id}`),
        await outsider.put(`${BASE}/${dashboard.id}`, { name: 'Hijacked', widgets: [] }),
        await outsider.delete(`${BASE}/${dashboard.id}`),
      ]) {
        expect([res.status, res.body.code]).toEqual([404, 96]);
      }
      expect(await storedLayout(dashboard.id)).toEqual(before);
      const { rows } = await suite.db.query('SELECT name FROM dashboards WHERE id = $1', [dashboard.id]);
      expect(rows).toEqual([{ name: 'Übersicht' }]);
    });

    it('needs the CSRF token for writes (77) and changes nothing without it', async () => {
      const { main, dashboard } = await world();
      const before = await storedLayout(dashboard.id);
      for (const res of [
        await main.post(BASE, { name: 'New' }, { csrf: false }),
        await main.put(`${BASE}/${dashboard.id}`, { name: 'Renamed', widgets: [] }, { csrf: 'forged' }),
        await main.delete(`${BASE}/${dashboard.id}`, { csrf: false }),
      ]) {
        expect([res.status, res.body.code]).toEqual([419, 77]);
      }
      expect(await storedLayout(dashboard.id)).toEqual(before);
      expect((await main.get(BASE)).body.payload).toHaveLength(1);
    });
  });
});
