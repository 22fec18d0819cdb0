import { describe, expect, it } from 'vitest';
import type { MapDeviceColumns } from '../../types/device';
import { devicePoints, rampColor, STATE_COLORS } from './device-points';

interface Row {
  id: number;
  state?: string;
  is_active?: boolean;
  latitude?: number | null;
  longitude?: number | null;
  data?: Record<string, unknown>;
}

/** The columns of view=map for these devices, as the API builds them. */
function columns(rows: Row[], fields: string[] = []): MapDeviceColumns {
  const states: string[] = [];
  const stateOf = (s: string) => (states.includes(s) ? states.indexOf(s) : states.push(s) - 1);
  return {
    count: rows.length,
    id: rows.map((r) => r.id),
    state: rows.map((r) => stateOf(r.state ?? 'ok')),
    states,
    is_active: rows.map((r) => (r.is_active === false ? 0 : 1)),
    latitude: rows.map((r) => (r.latitude === undefined ? 48.04 : r.latitude)),
    longitude: rows.map((r) => (r.longitude === undefined ? 7.57 : r.longitude)),
    data: Object.fromEntries(fields.map((f) => [f, rows.map((r) => r.data?.[f] ?? null)])),
  };
}

describe('devicePoints', () => {
  it('leaves out devices without a position and colours by state (grey when inactive)', () => {
    const points = devicePoints(
      columns([
        { id: 1 },
        { id: 2, state: 'broken' },
        { id: 3, is_active: false },
        { id: 4, latitude: null },
      ]),
      { by: 'state' },
    );
    expect(points.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(points[0]).toEqual({ id: 1, latitude: 48.04, longitude: 7.57, color: STATE_COLORS.ok });
    expect(points[1]?.color).toEqual(STATE_COLORS.broken);
    expect(points[2]?.color).not.toEqual(STATE_COLORS.ok);
  });
  it('colours by a field from the lowest (blue) to the highest (red) value', () => {
    const points = devicePoints(
      columns(
        [{ id: 1, data: { temperature: 10 } }, { id: 2, data: { temperature: 30 } }, { id: 3 }],
        ['temperature'],
      ),
      { by: 'field', field: 'temperature' },
    );
    expect(points[0]?.color).toEqual(rampColor(0, 0, 1));
    expect(points[1]?.color).toEqual(rampColor(1, 0, 1));
    expect(points[2]?.color).toEqual([203, 213, 225]);
  });
  it('keeps only the chosen devices when some are chosen', () => {
    const list = columns([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(devicePoints(list, { by: 'state' }, new Set([3, 1])).map((p) => p.id)).toEqual([1, 3]);
    expect(devicePoints(list, { by: 'state' }, new Set()).map((p) => p.id)).toEqual([1, 2, 3]);
  });
});
