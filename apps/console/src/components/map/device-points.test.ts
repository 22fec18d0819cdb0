import { describe, expect, it } from 'vitest';
import type { Device } from '../../types/device';
import { devicePoints, rampColor, STATE_COLORS } from './device-points';

const device = (id: number, extra: Partial<Device>): Device => ({
  id,
  name: `d${id}`,
  state: 'ok',
  is_active: true,
  latitude: 48.04,
  longitude: 7.57,
  ...extra,
});

describe('devicePoints', () => {
  it('leaves out devices without a position and colours by state (grey when inactive)', () => {
    const points = devicePoints(
      [
        device(1, {}),
        device(2, { state: 'broken' }),
        device(3, { is_active: false }),
        device(4, { latitude: null }),
      ],
      { by: 'state' },
    );
    expect(points.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(points[0]?.color).toEqual(STATE_COLORS.ok);
    expect(points[1]?.color).toEqual(STATE_COLORS.broken);
    expect(points[2]?.color).not.toEqual(STATE_COLORS.ok);
  });
  it('colours by a field from the lowest (blue) to the highest (red) value', () => {
    const points = devicePoints(
      [device(1, { data: { temperature: 10 } }), device(2, { data: { temperature: 30 } }), device(3, {})],
      { by: 'field', field: 'temperature' },
    );
    expect(points[0]?.color).toEqual(rampColor(0, 0, 1));
    expect(points[1]?.color).toEqual(rampColor(1, 0, 1));
    expect(points[2]?.color).toEqual([203, 213, 225]);
  });
});
