import { describe, expect, it } from 'vitest';
import { fullShareOf, occupancyBuckets } from './occupancy-history';

const H = 3_600_000;

describe('occupancyBuckets', () => {
  it('weights each count by the time it held, carries the state into the range, and knows when it was full', () => {
    const samples = [
      { at: -H, capacity: 4, free: 4, occupied: 0, unknown: 0 }, // before the range: the starting state
      { at: H / 2, capacity: 4, free: 0, occupied: 4, unknown: 0 },
      { at: 2 * H, capacity: 4, free: null, occupied: 0, unknown: 4 },
    ];
    const buckets = occupancyBuckets(samples, { from: 0, to: 3 * H, bucketMs: H });
    expect(buckets.map((b) => [b.free, b.occupied, b.fullShare])).toEqual([
      [2, 2, 0.5],
      [0, 4, 1],
      [null, 0, null],
    ]);
    expect(fullShareOf(buckets)).toBe(0.75);
  });

  it('has nulls before anything was recorded', () => {
    expect(occupancyBuckets([], { from: 0, to: H, bucketMs: H })).toEqual([
      { at: 0, free: null, occupied: null, unknown: null, fullShare: null },
    ]);
  });
});
