import { describe, expect, it } from 'vitest';
import { checkWidgets, GRID_COLUMNS, MAX_WIDGETS } from './check-widgets';

const map = (at: { x: number; y: number; w: number; h: number }) => ({
  type: 'map',
  title: ' Karte ',
  ...at,
  settings: { color_by: 'state' },
});

function failure(widgets: Parameters<typeof checkWidgets>[0]): Record<string, { key: string }> | null {
  try {
    checkWidgets(widgets);
    return null;
  } catch (err) {
    return (err as { details: { fields: Record<string, { key: string }> } }).details.fields;
  }
}

describe('checkWidgets', () => {
  // A 12-column grid: the last column is 11, a widget ends at column 12 at the latest.
  it.each([
    [{ x: 0, y: 0, w: 12, h: 1 }, null],
    [{ x: 11, y: 0, w: 1, h: 1 }, null],
    [{ x: 6, y: 1000, w: 6, h: 100 }, null],
    [{ x: 11, y: 0, w: 2, h: 1 }, 'widgets.0.w'],
    [{ x: 0, y: 0, w: 13, h: 1 }, 'widgets.0.w'],
    [{ x: 12, y: 0, w: 1, h: 1 }, 'widgets.0.x'],
    [{ x: 0, y: 1001, w: 1, h: 1 }, 'widgets.0.y'],
    [{ x: 0, y: 0, w: 1, h: 101 }, 'widgets.0.h'],
  ])('places %j: failing path %s', (at, path) => {
    const fields = failure([map(at)]);
    expect(fields === null ? null : Object.keys(fields)).toEqual(path === null ? null : [path]);
  });

  it('normalises: trimmed title, only known keys, ranges as ISO, a map over all devices', () => {
    expect(GRID_COLUMNS).toBe(12);
    const [chart, mapWidget] = checkWidgets([
      {
        type: 'line_chart',
        x: 0,
        y: 0,
        w: 12,
        h: 4,
        settings: {
          series: [{ device_id: 1, data_field: 'temperature' }],
          range: { tsstart: 0, tsend: '1970-01-02T00:00:00+01:00' },
          tab: 'range',
        },
      },
      map({ x: 0, y: 4, w: 12, h: 4 }),
    ]);
    expect(chart).toEqual({
      type: 'line_chart',
      title: '',
      x: 0,
      y: 0,
      w: 12,
      h: 4,
      settings: {
        series: [{ device_id: 1, data_field: 'temperature' }],
        range: { tsstart: '1970-01-01T00:00:00.000Z', tsend: '1970-01-01T23:00:00.000Z' },
        tab: 'range',
      },
    });
    expect(mapWidget).toMatchObject({ title: 'Karte', settings: { color_by: 'state', device_ids: [] } });
  });

  it(`refuses more than ${MAX_WIDGETS} widgets`, () => {
    const many = Array.from({ length: MAX_WIDGETS + 1 }, (_, i) => map({ x: 0, y: i, w: 1, h: 1 }));
    expect(Object.keys(failure(many) ?? {})).toEqual(['widgets']);
    expect(failure(many.slice(1))).toBeNull();
  });
});
