import { describe, expect, it } from 'vitest';
import { areaInUnit, formatArea } from './area';
import { batteryBucket, batteryLabelKey, readBatteryLevel } from './battery';
import { shortenEmail } from './email';
import { formatFieldValue } from './format-value';
import { lastOnlineBucket } from './last-online';
import { signalLevel } from './signal';
import { soilMoistureClass } from './soil-moisture';
import { isStale } from './stale';
import { uvIndexClass } from './uv-index';
import { beaufortFromKmh, windDirectionSector } from './wind';

describe('battery (over 80 full, 50 medium, 30 low, 10 empty, 0-10 alert)', () => {
  it.each([
    [100, 'full'],
    [80.1, 'full'],
    [80, 'medium'],
    [50.1, 'medium'],
    [50, 'low'],
    [31, 'low'],
    [30, 'empty'],
    [11, 'empty'],
    [10, 'alert'],
    [0, 'alert'],
    [-1, 'off'],
    [null, 'off'],
    [undefined, 'off'],
    [Number.NaN, 'off'],
  ] as const)('%s -> %s', (level, bucket) => {
    expect(batteryBucket(level)).toBe(bucket);
  });

  it('shows mains power as power whatever the level', () => {
    expect(batteryBucket(null, { mainsPowered: true })).toBe('power');
    expect(batteryBucket(5, { mainsPowered: true })).toBe('power');
  });

  it.each([
    [42, 42],
    ['42', 42],
    [{ battery_level: 70 }, 70],
    [{ level: 60 }, 60],
    [{ battery: { level: 55 } }, 55],
    [{ battery: 33 }, 33],
    [{ battery_level: null, level: 12 }, 12],
    [{}, null],
    [null, null],
    ['', null],
    ['abc', null],
  ] as const)('reads %j as %s', (source, level) => {
    expect(readBatteryLevel(source)).toBe(level);
  });

  it('names the label key', () => {
    expect(batteryLabelKey('alert')).toBe('display.battery.alert');
  });
});

describe('stale data (older than 8 hours)', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it.each([
    ['2026-11-21T04:00:00Z', false],
    ['2026-11-21T03:59:59Z', true],
    ['2026-11-20T12:00:00Z', true],
    [null, false],
    ['garbage', false],
  ] as const)('%s -> %s', (timestamp, stale) => {
    expect(isStale(timestamp, now)).toBe(stale);
  });
});

describe('last-online buckets (calendar days in Europe/Berlin)', () => {
  // 2026-11-21 10:00 in Berlin (UTC+1).
  const now = new Date('2026-11-21T09:00:00Z');
  it.each([
    ['2026-11-21T00:30:00+01:00', 'today'],
    ['2026-11-21T09:30:00Z', 'today'],
    ['2026-11-20T23:59:00+01:00', 'yesterday'],
    ['2026-11-20T00:00:00+01:00', 'yesterday'],
    ['2026-11-19T12:00:00+01:00', 'last-7-days'],
    ['2026-11-14T12:00:00+01:00', 'last-7-days'],
    ['2026-11-13T12:00:00+01:00', 'last-14-days'],
    ['2026-11-07T12:00:00+01:00', 'last-14-days'],
    ['2026-11-06T12:00:00+01:00', 'last-30-days'],
    ['2026-10-22T12:00:00+02:00', 'last-30-days'],
    ['2026-10-21T12:00:00+02:00', 'more-than-30-days'],
    [null, 'n-a'],
  ] as const)('%s -> %s', (timestamp, bucket) => {
    expect(lastOnlineBucket(timestamp, now)).toBe(bucket);
  });

  it('uses the given time zone for the date boundary', () => {
    // 23:30 UTC on the 20th is already the 21st in Berlin but still the 20th in UTC.
    const ts = '2026-11-20T23:30:00Z';
    expect(lastOnlineBucket(ts, now, 'Europe/Berlin')).toBe('today');
    expect(lastOnlineBucket(ts, now, 'UTC')).toBe('yesterday');
  });
});

describe('soil moisture pf0..pf5', () => {
  it.each([
    [0, 'pf0'],
    [0.5, 'pf0'],
    [1, 'pf1'],
    [2.5, 'pf2'],
    [4.5, 'pf4'],
    [5, 'pf5'],
    [7, 'pf5'],
    [-1, 'pf0'],
    [null, null],
  ] as const)('%s -> %s', (pf, cls) => {
    expect(soilMoistureClass(pf)).toBe(cls);
  });
});

describe('UV index classes', () => {
  it.each([
    [0, 'low'],
    [2.9, 'low'],
    [3, 'moderate'],
    [5.9, 'moderate'],
    [6, 'high'],
    [7.9, 'high'],
    [8, 'very-high'],
    [10.9, 'very-high'],
    [11, 'extreme'],
    [-1, null],
    [null, null],
  ] as const)('%s -> %s', (index, cls) => {
    expect(uvIndexClass(index)).toBe(cls);
  });
});

describe('Beaufort scale 0..12 from km/h', () => {
  it.each([
    [0, 0],
    [0.9, 0],
    [1, 1],
    [5.9, 1],
    [6, 2],
    [19.9, 3],
    [20, 4],
    [38, 5],
    [49, 6],
    [61, 7],
    [74, 8],
    [88, 9],
    [102, 10],
    [117, 11],
    [118, 12],
    [300, 12],
    [-3, null],
    [null, null],
  ] as const)('%s km/h -> %s', (speed, beaufort) => {
    expect(beaufortFromKmh(speed)).toBe(beaufort);
  });
});

describe('wind direction, 16 sectors of 22.5 degrees', () => {
  it.each([
    [0, 'N'],
    [11.24, 'N'],
    [11.25, 'NNE'],
    [348.74, 'NNW'],
    [348.76, 'N'],
    [359.9, 'N'],
    [360, 'N'],
    [45, 'NE'],
    [90, 'E'],
    [180, 'S'],
    [202.5, 'SSW'],
    [270, 'W'],
    [-90, 'W'],
    [null, null],
  ] as const)('%s° -> %s', (degrees, sector) => {
    expect(windDirectionSector(degrees)).toBe(sector);
  });
});

describe('email shortening (15 and 15)', () => {
  it.each([
    ['short@example.com', 'short@example.com'],
    ['exactly15chars1@example.com', 'exactly15chars1@example.com'],
    ['sixteen16chars16@example.com', 'sixteen16chars1…@example.com'],
    ['a@averyveryverylongdomain.com', 'a@…ylongdomain.com'],
    ['a@sub.example.de', 'a@sub.example.de'],
    ['exactly15chars1@fifteen-chars.d', 'exactly15chars1@fifteen-chars.d'],
    ['a@sixteen-chars.de', 'a@…ixteen-chars.de'],
    ['not-an-email', 'not-an-email'],
  ])('%s -> %s', (email, short) => {
    expect(shortenEmail(email)).toBe(short);
  });

  it('keeps the last 15 characters of a long domain', () => {
    expect(shortenEmail('a@monitoring.platform-example.com')).toBe('a@…orm-example.com');
  });
});

describe('area sizes (m² to 9999, ha above, km² above 999999), German format', () => {
  it.each([
    [500, '500 m²'],
    [9999, '9.999 m²'],
    [10_000, '1 ha'],
    [12_345, '1,23 ha'],
    [999_999, '100 ha'],
    [1_000_000, '1 km²'],
    [2_500_000, '2,5 km²'],
  ] as const)('%d m² -> %s', (m2, text) => {
    expect(formatArea(m2)).toBe(text);
  });

  it('formats for another locale', () => {
    expect(formatArea(12_345, 'en')).toBe('1.23 ha');
    expect(formatArea(9999, 'en')).toBe('9,999 m²');
  });

  it('chooses units at the thresholds', () => {
    expect(areaInUnit(9999).unit).toBe('m²');
    expect(areaInUnit(999_999).unit).toBe('ha');
  });
});

describe('signal strength 1..5', () => {
  it.each([
    [0, 1],
    [1, 1],
    [3.4, 3],
    [5, 5],
    [9, 5],
    [null, null],
  ] as const)('%s -> %s', (value, level) => {
    expect(signalLevel(value)).toBe(level);
  });
});

describe('formatFieldValue', () => {
  it.each([
    ['temperature', 21.46, { kind: 'text', text: '21,5', unit: '°C' }],
    ['co2', 412.6, { kind: 'text', text: '413', unit: 'ppm' }],
    ['co2', '412,4', { kind: 'text', text: '412', unit: 'ppm' }],
    ['pax_count', 1234, { kind: 'text', text: '1.234' }],
    ['occupied', true, { kind: 'key', key: 'display.occupied' }],
    ['occupied', 0, { kind: 'key', key: 'display.free' }],
    ['door_open', 1, { kind: 'key', key: 'display.door-open' }],
    ['door_open', false, { kind: 'key', key: 'display.door-closed' }],
    ['valve_2', true, { kind: 'key', key: 'display.valve-open' }],
    ['valve_2', false, { kind: 'key', key: 'display.valve-closed' }],
    ['pump_7', true, { kind: 'key', key: 'display.active' }],
    ['relay_output_1', '0', { kind: 'key', key: 'display.inactive' }],
    ['water_leak', true, { kind: 'key', key: 'display.leak' }],
    ['vehicle_class', 'truck', { kind: 'key', key: 'display.vehicle-class.truck' }],
    ['geo', [48.041477, 7.576644], { kind: 'text', text: '48.041477, 7.576644' }],
    ['temperature', null, { kind: 'key', key: 'display.no-data' }],
    ['status_text', 'ok', { kind: 'text', text: 'ok' }],
  ] as const)('%s = %j', (name, value, formatted) => {
    expect(formatFieldValue(name, value)).toEqual(formatted);
  });

  it('uses one decimal and the given unit for virtual fields, and the locale', () => {
    const name = 'virtual.123e4567-e89b-12d3-a456-426614174000.flow';
    expect(formatFieldValue(name, 1234.56, { locale: 'en', unit: 'l' })).toEqual({
      kind: 'text',
      text: '1,234.6',
      unit: 'l',
    });
  });
});
