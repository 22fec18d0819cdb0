import type { AggregationFunction } from '@iot/domain';
import { describe, expect, it } from 'vitest';
import { aggregate } from './aggregate';
import { localTime } from './local-time';
import type { VirtualFieldState } from './types';

const utc = (iso: string) => Date.parse(`${iso}Z`);

/** Feeds [instant, input] pairs through one function, state through JSON; returns the values. */
function series(fn: AggregationFunction, points: readonly (readonly [number, number])[]): (number | null)[] {
  let state: VirtualFieldState = {};
  return points.map(([at, input]) => {
    const step = aggregate(fn, input, at, localTime(at, 'Europe/Berlin'), state);
    state = JSON.parse(JSON.stringify(step.state));
    return step.value;
  });
}

const T0 = utc('2026-03-02T08:00:00'); // Monday 09:00 in Berlin
const at = (seconds: number) => T0 + seconds * 1000;

describe('aggregation functions on known series', () => {
  it.each([
    [
      'count_up_hourly within one hour, then a new hour',
      'count_up_hourly',
      [
        [at(600), 1],
        [at(1200), 0],
        [at(3000), 1],
        [at(3600), 1],
        [at(5400), 7],
      ],
      [1, 1, 2, 1, 2],
    ],
    [
      'count_up_hourly over the repeated autumn hour (two buckets)',
      'count_up_hourly',
      [
        [utc('2026-10-25T00:30:00'), 1],
        [utc('2026-10-25T00:50:00'), 1],
        [utc('2026-10-25T01:10:00'), 1],
      ],
      [1, 2, 1],
    ],
    [
      'count_up_daily resets at local midnight',
      'count_up_daily',
      [
        [utc('2026-03-02T22:30:00'), 1],
        [utc('2026-03-02T22:50:00'), 1],
        [utc('2026-03-02T23:10:00'), 1],
      ],
      [1, 2, 1],
    ],
    [
      'count_up_daily over the 25-hour autumn day',
      'count_up_daily',
      [
        [utc('2026-10-24T22:30:00'), 1],
        [utc('2026-10-25T22:30:00'), 1],
        [utc('2026-10-25T23:30:00'), 1],
      ],
      [1, 2, 1],
    ],
    [
      'count_up_daily over the 23-hour spring day',
      'count_up_daily',
      [
        [utc('2026-03-28T23:00:00'), 1],
        [utc('2026-03-29T21:59:00'), 1],
        [utc('2026-03-29T22:00:00'), 1],
      ],
      [1, 2, 1],
    ],
    [
      'diff_to_last',
      'diff_to_last',
      [
        [at(0), 10],
        [at(60), 12.5],
        [at(120), 12],
        [at(180), 20],
      ],
      [null, 2.5, -0.5, 8],
    ],
    [
      'sum_up',
      'sum_up',
      [
        [at(0), 1],
        [at(60), 2.5],
        [at(120), 3],
        [at(180), -1],
      ],
      [1, 3.5, 6.5, 5.5],
    ],
    [
      'moving_average_hourly',
      'moving_average_hourly',
      [
        [at(0), 10],
        [at(600), 20],
        [at(1800), 30],
        [at(3599), 40],
        [at(3600), 50], // the bucket of 0 s drops out
        [at(3661), 60],
        [at(4200), 70], // the bucket of 600 s drops out
      ],
      [10, 15, 20, 25, 35, 40, 50],
    ],
    [
      'moving_average_daily',
      'moving_average_daily',
      [
        [at(0), 10],
        [at(43_200), 20],
        [at(86_399), 30],
        [at(86_400), 40], // the bucket of 0 s drops out: 20, 30, 40
        [at(87_300), 50], // 20, 30, 40, 50
      ],
      [10, 15, 20, 30, 35],
    ],
  ] as [string, AggregationFunction, [number, number][], (number | null)[]][])(
    '%s',
    (_name, fn, points, expected) => {
      const values = series(fn, points);
      expect(values).toHaveLength(expected.length);
      values.forEach((value, index) => {
        const want = expected[index] ?? null;
        if (want === null) expect(value).toBeNull();
        else expect(value).toBeCloseTo(want, 12);
      });
    },
  );

  it.each([
    ['moving_average_hourly', 10, 60],
    ['moving_average_daily', 60, 96],
  ] as const)('%s keeps its state bounded (at most %d s apart -> %d buckets)', (fn, step, maxBuckets) => {
    let state: VirtualFieldState = {};
    for (let index = 0; index < 10_000; index++) {
      state = aggregate(
        fn,
        index,
        at(index * step),
        localTime(at(index * step), 'Europe/Berlin'),
        state,
      ).state;
    }
    expect(state.buckets?.length).toBe(maxBuckets);
  });
});
