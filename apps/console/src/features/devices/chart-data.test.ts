import { describe, expect, it } from 'vitest';
import { numericFields, toChartData, uplotFieldData } from '../../lib/chart-data';
import { buildCsv, csvFileName } from './csv';
import { heatLevel, uplinkGrid } from './uplink-grid';

describe('series for uPlot', () => {
  it('raw points: x in seconds ascending, numbers per field, no band', () => {
    const chart = toChartData(
      {
        downsampled: false,
        points: [
          { created_at: '2026-11-21T10:10:00Z', data: { temperature: '21,5', door: true } },
          { created_at: '2026-11-21T10:00:00Z', data: { temperature: 20 } },
        ],
      },
      ['temperature', 'humidity'],
    );
    expect(chart.x).toEqual([
      Date.parse('2026-11-21T10:00:00Z') / 1000,
      Date.parse('2026-11-21T10:10:00Z') / 1000,
    ]);
    expect(chart.fields[0]?.values).toEqual([20, 21.5]);
    expect(chart.fields[1]?.values).toEqual([null, null]);
    expect(uplotFieldData(chart, 0)).toEqual([chart.x, [20, 21.5]]);
    // a field missing from a point is left out of that field's line, not drawn as a gap
    expect(uplotFieldData(chart, 1)).toEqual([[], []]);
  });

  it('buckets: the average is the line, min and max the band', () => {
    const chart = toChartData(
      {
        downsampled: true,
        points: [
          {
            created_at: '2026-11-21T00:00:00Z',
            data: { temperature: 20 },
            count: 6,
            min: { temperature: 18 },
            max: { temperature: 25 },
          },
        ],
      },
      ['temperature'],
    );
    expect(uplotFieldData(chart, 0)).toEqual([[Date.parse('2026-11-21T00:00:00Z') / 1000], [20], [18], [25]]);
  });

  it('charts the numeric fields in metadata order, then by name', () => {
    expect(
      numericFields({ humidity: 40, temperature: 20, door: true, label: 'x', co2: '400', latitude: 48 }, [
        'temperature',
      ]),
    ).toEqual(['temperature', 'co2', 'humidity']);
  });
});

describe('CSV export', () => {
  it('ISO timestamps, dot decimals, header of field names, quoting', () => {
    const csv = buildCsv(
      ['temperature', 'note'],
      [
        { created_at: '2026-11-21T10:10:00.000Z', data: { temperature: 21.5, note: 'a,"b"' } },
        { created_at: '2026-11-21T10:00:00Z', data: { temperature: 1234.25 } },
      ],
    );
    expect(csv).toBe(
      'created_at,temperature,note\n2026-11-21T10:00:00.000Z,1234.25,\n2026-11-21T10:10:00.000Z,21.5,"a,""b"""\n',
    );
  });

  it('buckets add min and max columns', () => {
    const csv = buildCsv(
      ['t'],
      [{ created_at: '2026-11-21T00:00:00Z', data: { t: 2 }, min: { t: 1 }, max: { t: 3 } }],
    );
    expect(csv.split('\n').slice(0, 2)).toEqual([
      'created_at,t,t_min,t_max',
      '2026-11-21T00:00:00.000Z,2,1,3',
    ]);
  });

  it('file name from the device and the period', () => {
    expect(
      csvFileName('Keller / Süd', Date.parse('2026-11-20T12:00:00Z'), Date.parse('2026-11-21T12:00:00Z')),
    ).toBe('Keller_S_d_2026-11-20_2026-11-21.csv');
  });
});

describe('uplink timetable', () => {
  it('counts uplinks per local hour of the last 7 days, newest day first', () => {
    const now = new Date(2026, 10, 21, 15, 0).getTime();
    const at = (d: number, h: number, m = 0) => new Date(2026, 10, d, h, m).toISOString();
    const grid = uplinkGrid(
      [
        { created_at: at(21, 9), data: {} },
        { created_at: at(21, 9, 30), data: {} },
        { created_at: at(20, 23, 59), data: {}, count: 4 },
        { created_at: at(10, 9), data: {} }, // older than 7 days: not shown
      ],
      now,
    );
    expect(grid).toHaveLength(7);
    expect(grid[0]?.hours[9]).toBe(2);
    expect(grid[0]?.total).toBe(2);
    expect(grid[1]?.hours[23]).toBe(4);
    expect(grid.reduce((s, d) => s + d.total, 0)).toBe(6);
  });

  it.each([
    [0, 10, 0],
    [1, 10, 1],
    [5, 10, 2],
    [10, 10, 4],
  ])('heat level of %i of %i is %i', (count, max, level) => {
    expect(heatLevel(count, max)).toBe(level);
  });
});

describe('field display', async () => {
  const { describeField } = await import('../../lib/field-display');
  it.each([
    ['temperature', 21.46, 'de-DE', { kind: 'text', text: '21,5', unit: '°C' }, null],
    ['temperature', 21.46, 'en-GB', { kind: 'text', text: '21.5', unit: '°C' }, null],
    ['occupied', true, 'en-GB', { kind: 'key', key: 'display.occupied' }, null],
    ['uv_index', 7, 'en-GB', { kind: 'text', text: '7' }, 'display.uv.high'],
    ['wind_direction', 350, 'en-GB', { kind: 'text', text: '350', unit: '°' }, 'display.wind-direction.N'],
  ])('%s = %s in %s', (field, value, locale, formatted, key) => {
    expect(describeField(field, value, locale)).toEqual({ value: formatted, classKey: key });
  });
});
