import { describe, expect, it } from 'vitest';
import { chooseBucketSeconds } from './choose-bucket';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe('chooseBucketSeconds', () => {
  // The console's chart ranges (spec section 2: 24 hours, 1 week, 1 month, 6 months, 1 year) at the
  // API's default 1500 points, and a few edges.
  it.each([
    ['24 hours', DAY_MS, 1500, 60],
    ['1 week', 7 * DAY_MS, 1500, 600],
    ['1 month', 30 * DAY_MS, 1500, 1800],
    ['6 months', 182 * DAY_MS, 1500, 3 * 3600],
    ['1 year', 365 * DAY_MS, 1500, 6 * 3600],
    ['1 day at 24 points', DAY_MS, 24, 3600],
    ['exactly fitting', 1500 * 5 * 1000, 1500, 5],
    ['one second over', 1500 * 5 * 1000 + 1000, 1500, 10],
    ['30 years at 10 points', 30 * 365 * DAY_MS, 10, (1110 * DAY_MS) / 1000],
  ])('%s', (_, rangeMs, maxPoints, expected) => {
    const seconds = chooseBucketSeconds(rangeMs, maxPoints);
    expect(seconds).toBe(expected);
    expect(Math.ceil(rangeMs / 1000 / seconds)).toBeLessThanOrEqual(maxPoints);
  });
});
