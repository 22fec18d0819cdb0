import { describe, expect, it } from 'vitest';
import { parsePeriod } from './device-period';

const NOW = new Date('2026-03-10T12:00:00Z');

describe('parsePeriod', () => {
  it.each([
    ['nothing: the last 24 hours', {}, '2026-03-09T12:00:00.000Z', '2026-03-10T12:00:00.000Z'],
    [
      'ISO bounds, tsend inclusive',
      { tsstart: '2026-03-01T00:00:00Z', tsend: '2026-03-02T00:00:00Z' },
      '2026-03-01T00:00:00.000Z',
      '2026-03-02T00:00:00.001Z',
    ],
    [
      'epoch milliseconds, as text or number',
      { tsstart: '1772323200000', tsend: 1772409600000 },
      '2026-03-01T00:00:00.000Z',
      '2026-03-02T00:00:00.001Z',
    ],
    [
      'only tsstart: until now',
      { tsstart: '2026-03-10' },
      '2026-03-10T00:00:00.000Z',
      '2026-03-10T12:00:00.000Z',
    ],
  ])('%s', (_, query, from, to) => {
    const range = parsePeriod(query, { now: NOW });
    expect([range.from.toISOString(), range.to.toISOString()]).toEqual([from, to]);
  });

  it.each([
    { tsstart: 'yesterday' },
    { tsend: '10.03.2026' },
    { tsstart: '2026-02-30T99:00:00Z' },
    { tsstart: '2026-03-02T00:00:00Z', tsend: '2026-03-01T00:00:00Z' },
    { tsstart: 'NaN' },
  ])('refuses %j with 10002', (query) => {
    expect(() => parsePeriod(query, { now: NOW })).toThrow(
      expect.objectContaining({ code: 10002, status: 422 }),
    );
  });
});
