import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { BASE, useDashboardsSuite } from './dashboards-test-setup';

forEachDb((suite) => {
  const { world, widget, storedLayout } = useDashboardsSuite(suite);

  describe('/core/company/dashboards', () => {
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
  });
});
