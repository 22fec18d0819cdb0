import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

const BASE = '/api/v1/core/company/dashboards';
const VIRTUAL = 'virtual.3f2b8c1e-9d4a-4e5b-8f6c-1a2b3c4d5e6f.Taupunkt';

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

  /** A company, its users, two devices and a dashboard with one widget of each type. */
  async function world() {
    const team = await createTeam(suite.db);
    const d1 = await createDevice(suite.db, team.company.id);
    const d2 = await createDevice(suite.db, team.company.id);
    const layout = [
      widget(
        'table',
        { device_ids: [d1.id, d2.id], data_fields: ['temperature', 'humidity'] },
        { x: 0, w: 6 },
      ),
      widget(
        'line_chart',
        { series: [{ device_id: d1.id, data_field: VIRTUAL }], range: '1w', tab: 'week' },
        { x: 6, w: 6 },
      ),
      widget('map', { color_by: 'state' }, { y: 5, w: 12, h: 6 }),
    ];
    const main = await signIn(team.main.email);
    const created = await main.post(BASE, { name: 'Übersicht', widgets: layout });
    expect(created.status).toBe(200);
    return { team, d1, d2, main, layout, dashboard: created.body.payload };
  }

  function widget(
    type: string,
    settings: Record<string, unknown>,
    at: Partial<Record<'x' | 'y' | 'w' | 'h', number>> = {},
  ) {
    return { type, title: `${type} widget`, x: 0, y: 0, w: 4, h: 5, ...at, settings };
  }

  /** The layout as stored: type, position, size and settings of each widget, in row order. */
  async function storedLayout(dashboardId: number) {
    const { rows } = await suite.db.query(
      `SELECT type, title, x, y, w, h, settings FROM dashboard_widgets WHERE dashboard_id = $1 ORDER BY y, x, id`,
      [dashboardId],
    );
    return rows;
  }

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

    // Grid and settings rules per widget type; each bad widget answers 422 naming its path.
    const BAD: [string, (ids: { d1: number }) => unknown, string, string][] = [
      ['unknown type', () => widget('gauge', {}), 'widgets.0.type', 'error.unknown'],
      ['negative x', () => widget('map', { color_by: 'state' }, { x: -1 }), 'widgets.0.x', 'error.range'],
      ['negative y', () => widget('map', { color_by: 'state' }, { y: -1 }), 'widgets.0.y', 'error.range'],
      ['zero width', () => widget('map', { color_by: 'state' }, { w: 0 }), 'widgets.0.w', 'error.range'],
      ['zero height', () => widget('map', { color_by: 'state' }, { h: 0 }), 'widgets.0.h', 'error.range'],
      [
        'past 12 columns',
        () => widget('map', { color_by: 'state' }, { x: 8, w: 6 }),
        'widgets.0.w',
        'error.max',
      ],
      [
        'x at column 12',
        () => widget('map', { color_by: 'state' }, { x: 12, w: 1 }),
        'widgets.0.x',
        'error.range',
      ],
      [
        'table without devices list',
        () => widget('table', { data_fields: ['a'] }),
        'widgets.0.settings.device_ids',
        'error.required',
      ],
      [
        'table device id text',
        () => widget('table', { device_ids: ['1'], data_fields: [] }),
        'widgets.0.settings.device_ids',
        'error.integer',
      ],
      [
        'table duplicate field',
        ({ d1 }) => widget('table', { device_ids: [d1], data_fields: ['a', 'a'] }),
        'widgets.0.settings.data_fields',
        'error.duplicate-values',
      ],
      [
        'table bad field name',
        ({ d1 }) => widget('table', { device_ids: [d1], data_fields: ['a;drop'] }),
        'widgets.0.settings.data_fields',
        'error.unknown',
      ],
      [
        'table unknown key',
        ({ d1 }) => widget('table', { device_ids: [d1], data_fields: [], colour: 'red' }),
        'widgets.0.settings.colour',
        'error.unknown',
      ],
      [
        'chart without range',
        ({ d1 }) => widget('line_chart', { series: [{ device_id: d1, data_field: 'a' }] }),
        'widgets.0.settings.range',
        'error.required',
      ],
      [
        'chart range 2d',
        ({ d1 }) => widget('line_chart', { series: [{ device_id: d1, data_field: 'a' }], range: '2d' }),
        'widgets.0.settings.range',
        'error.unknown',
      ],
      [
        'chart range reversed',
        ({ d1 }) =>
          widget('line_chart', {
            series: [{ device_id: d1, data_field: 'a' }],
            range: { tsstart: '2026-02-01', tsend: '2026-01-01' },
          }),
        'widgets.0.settings.range.tsend',
        'error.min',
      ],
      [
        'chart range bad time',
        ({ d1 }) =>
          widget('line_chart', {
            series: [{ device_id: d1, data_field: 'a' }],
            range: { tsstart: 'soon', tsend: '2026-01-01' },
          }),
        'widgets.0.settings.range.tsstart',
        'error.unknown',
      ],
      [
        'chart tab hour',
        ({ d1 }) =>
          widget('line_chart', { series: [{ device_id: d1, data_field: 'a' }], range: '24h', tab: 'hour' }),
        'widgets.0.settings.tab',
        'error.unknown',
      ],
      [
        'chart tab range with preset',
        ({ d1 }) =>
          widget('line_chart', { series: [{ device_id: d1, data_field: 'a' }], range: '24h', tab: 'range' }),
        'widgets.0.settings.tab',
        'error.unknown',
      ],
      [
        'chart series without field',
        ({ d1 }) => widget('line_chart', { series: [{ device_id: d1 }], range: '24h' }),
        'widgets.0.settings.series.0.data_field',
        'error.required',
      ],
      [
        'chart bad virtual field',
        ({ d1 }) =>
          widget('line_chart', {
            series: [{ device_id: d1, data_field: 'virtual.not-a-uuid.x;' }],
            range: '24h',
          }),
        'widgets.0.settings.series.0.data_field',
        'error.unknown',
      ],
      ['map without color_by', () => widget('map', {}), 'widgets.0.settings.color_by', 'error.required'],
      [
        'map color_by battery',
        () => widget('map', { color_by: 'battery' }),
        'widgets.0.settings.color_by',
        'error.unknown',
      ],
      [
        'map field without data_field',
        () => widget('map', { color_by: 'field' }),
        'widgets.0.settings.data_field',
        'error.required',
      ],
    ];

    it.each(BAD)(
      'refuses a widget with %s (422) on POST and PUT, changing nothing',
      async (_, make, path, key) => {
        const { d1, main, dashboard } = await world();
        const before = await storedLayout(dashboard.id);
        const bad = make({ d1: d1.id });
        const put = await main.put(`${BASE}/${dashboard.id}`, { name: 'Changed', widgets: [bad] });
        expect([put.status, put.body.code]).toEqual([422, 422]);
        expect(put.body.details.fields[path]?.key, JSON.stringify(put.body.details)).toBe(key);
        const post = await main.post(BASE, { name: 'New', widgets: [bad] });
        expect([post.status, post.body.code]).toEqual([422, 422]);
        expect(await storedLayout(dashboard.id)).toEqual(before);
        const list = await main.get(BASE);
        expect(list.body.payload.map((d: { name: string }) => d.name)).toEqual(['Übersicht']);
      },
    );

    it('refuses a missing or blank name (422 error.required) and a body outside the schema', async () => {
      const { main } = await world();
      for (const body of [{ name: '' }, { name: '  ' }, { name: null }]) {
        const res = await main.post(BASE, body);
        expect([res.status, res.body.code, res.body.details?.fields?.name?.key]).toEqual([
          422,
          422,
          'error.required',
        ]);
      }
      for (const body of [
        {},
        { name: 'A', widgets: [{ type: 'map' }] },
        { name: 'A', widgets: [{ ...widget('map', {}), x: 1.5 }] },
      ]) {
        const res = await main.post(BASE, body);
        expect([res.status, res.body.code], JSON.stringify(body)).toEqual([422, 422]);
      }
    });

    it("refuses another company's device ids in every kind of widget and keeps the old layout (PUT atomicity)", async () => {
      const { d1, main, dashboard } = await world();
      const other = await createTeam(suite.db);
      const foreign = await createDevice(suite.db, other.company.id);
      const before = await storedLayout(dashboard.id);
      const cases: [unknown, string][] = [
        [
          widget('table', { device_ids: [d1.id, foreign.id], data_fields: ['a'] }),
          'widgets.1.settings.device_ids',
        ],
        [
          widget('line_chart', {
            series: [
              { device_id: d1.id, data_field: 'a' },
              { device_id: foreign.id, data_field: 'a' },
            ],
            range: '24h',
          }),
          'widgets.1.settings.series.1.device_id',
        ],
        [widget('map', { color_by: 'state', device_ids: [foreign.id] }), 'widgets.1.settings.device_ids'],
      ];
      for (const [bad, path] of cases) {
        // A good widget first: the whole list is refused, not saved up to the bad one.
        const good = widget('map', { color_by: 'state' }, { y: 20 });
        const res = await main.put(`${BASE}/${dashboard.id}`, { name: 'Changed', widgets: [good, bad] });
        expect([res.status, res.body.code]).toEqual([422, 422]);
        expect(Object.keys(res.body.details.fields)).toEqual([path]);
        expect(await storedLayout(dashboard.id)).toEqual(before);
        expect((await main.get(`${BASE}/${dashboard.id}`)).body.payload.name).toBe('Übersicht');
      }
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
