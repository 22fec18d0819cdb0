import type { AggregationFunction } from '@iot/domain';
import type { LocalTime } from './local-time';
import type { VirtualFieldState } from './types';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/**
 * Moving averages keep sub-buckets instead of every sample, so the state stays small however often a
 * device reports: the hourly average sums one-minute buckets (at most 60), the daily one fifteen-minute
 * buckets (at most 96). The window is "the sub-bucket of the current value and the ones that began
 * less than a period before it": values older than (start of current sub-bucket - period + sub-bucket)
 * drop out.
 */
export const MOVING_AVERAGE = {
  moving_average_hourly: { period: HOUR_MS, bucket: 60_000 },
  moving_average_daily: { period: DAY_MS, bucket: 900_000 },
} as const;

/**
 * One step of an aggregation function: the input value at time `at` (epoch ms), with its local-time
 * view for calendar buckets. Returns the function's value (null when it has none yet) and the next state.
 *
 * - count_up_hourly / count_up_daily: how many uplinks with a true (non-zero) input fell in the current
 *   local hour / local day of the company's zone, this one included; resets when a new hour / day begins.
 *   The repeated autumn hour counts as two hours (buckets begin at instants, not at wall-clock times);
 *   the 23- and 25-hour days of the DST changes are one day each.
 * - diff_to_last: input minus the previous input; the first input has no value.
 * - moving_average_hourly / _daily: see MOVING_AVERAGE.
 * - sum_up: running total of all inputs.
 */
export function aggregate(
  fn: AggregationFunction,
  input: number,
  at: number,
  time: LocalTime,
  state: VirtualFieldState,
): { value: number | null; state: VirtualFieldState } {
  switch (fn) {
    case 'count_up_hourly':
    case 'count_up_daily': {
      const bucket = fn === 'count_up_hourly' ? time.hourStart : time.dayNumber;
      const previous = state.bucket === bucket ? (state.total ?? 0) : 0;
      const total = previous + (input !== 0 ? 1 : 0);
      return { value: total, state: { lastAt: at, bucket, total } };
    }
    case 'diff_to_last': {
      const value = state.last === undefined ? null : input - state.last;
      return { value, state: { lastAt: at, last: input } };
    }
    case 'sum_up': {
      const total = (state.total ?? 0) + input;
      return { value: total, state: { lastAt: at, total } };
    }
    case 'moving_average_hourly':
    case 'moving_average_daily': {
      const { period, bucket: size } = MOVING_AVERAGE[fn];
      const start = at - (at % size);
      const oldest = start - period + size;
      const buckets = (state.buckets ?? []).filter(([bucketStart]) => bucketStart >= oldest);
      const last = buckets[buckets.length - 1];
      if (last && last[0] === start) buckets[buckets.length - 1] = [start, last[1] + input, last[2] + 1];
      else buckets.push([start, input, 1]);
      let sum = 0;
      let count = 0;
      for (const [, bucketSum, bucketCount] of buckets) {
        sum += bucketSum;
        count += bucketCount;
      }
      return { value: sum / count, state: { lastAt: at, buckets } };
    }
  }
}
