import { describe, expect, it } from 'vitest';
import type { DeviceSeries } from '../../../types/device';
import { alignLines, seasonLines } from './season-readings';

const answer = (device_id: number, points: Array<[string, Record<string, number>]>): DeviceSeries => ({
  device_id,
  data_fields: null,
  tsstart: '2026-01-01T00:00:00Z',
  tsend: '2027-01-01T00:00:00Z',
  total: points.length,
  downsampled: false,
  bucket_seconds: null,
  points: points.map(([created_at, data]) => ({ created_at, data })),
});

describe('season readings', () => {
  it('makes one line per device and field with numbers, in time order, and aligns them on one axis', () => {
    const lines = seasonLines(
      [
        answer(1, [
          ['2026-05-02T00:00:00Z', { soil_water_pf1: 2.5 }],
          ['2026-05-01T00:00:00Z', { soil_water_pf1: 2, rain_hourly: 1.2 }],
        ]),
        answer(2, [['2026-05-01T12:00:00Z', { soil_water_pf1: 3 }]]),
        answer(3, [['2026-05-01T12:00:00Z', { temperature: 3 }]]),
      ],
      ['soil_water_pf1', 'rain_hourly'],
    );
    const t = (iso: string) => Date.parse(iso) / 1000;
    expect(lines.map((l) => [l.deviceId, l.key, l.y])).toEqual([
      [1, 'soil_water_pf1', [2, 2.5]],
      [1, 'rain_hourly', [1.2]],
      [2, 'soil_water_pf1', [3]],
    ]);
    const pf = lines.filter((l) => l.key === 'soil_water_pf1');
    expect(alignLines(pf)).toEqual([
      [t('2026-05-01T00:00:00Z'), t('2026-05-01T12:00:00Z'), t('2026-05-02T00:00:00Z')],
      [2, null, 2.5],
      [null, 3, null],
    ]);
    expect(alignLines([])).toEqual([[]]);
  });
});
