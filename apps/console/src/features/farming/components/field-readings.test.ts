import { describe, expect, it } from 'vitest';
import {
  type CurrentOfDevice,
  fieldMoisture,
  lastReadingAt,
  latest,
  MOISTURE_COLORS,
} from './field-readings';

const device = (
  id: number,
  data: Record<string, number>,
  at: string,
  stale: Record<string, boolean> = {},
): CurrentOfDevice => ({
  device_id: id,
  updated_at: at,
  data,
  field_times: Object.fromEntries(Object.keys(data).map((k) => [k, at])),
  stale,
  geo: null,
});

describe('field readings', () => {
  it('takes the newest value across devices and classes pF readings (pf0 very wet .. pf5 arid)', () => {
    const devices = [
      device(1, { soil_water_pf1: 1.5 }, '2026-11-28T06:00:00Z'),
      device(2, { soil_water_pf1: 4.2, soil_humidity: 12 }, '2026-11-28T07:00:00Z'),
    ];
    expect(latest(devices, 'soil_water_pf1')).toEqual({
      value: 4.2,
      at: '2026-11-28T07:00:00Z',
      stale: false,
    });
    expect(fieldMoisture(devices)).toMatchObject({ kind: 'pf', cls: 'pf4' });
    expect(lastReadingAt(devices)).toBe('2026-11-28T07:00:00Z');
  });

  it('falls back to percent without a class, and gives a stale pF reading no class', () => {
    expect(fieldMoisture([device(1, { soil_humidity: 31 }, '2026-11-28T06:00:00Z')])).toMatchObject({
      kind: 'percent',
      cls: null,
    });
    const stale = fieldMoisture([
      device(1, { soil_water_pf1: 2 }, '2026-11-27T06:00:00Z', { soil_water_pf1: true }),
    ]);
    expect(stale).toMatchObject({ kind: 'pf', cls: null, reading: { stale: true } });
    expect(fieldMoisture([])).toBeNull();
    expect(lastReadingAt([])).toBeNull();
    expect(new Set(Object.values(MOISTURE_COLORS).map(String)).size).toBe(7);
  });
});
