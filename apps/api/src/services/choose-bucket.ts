/**
 * Bucket width for a downsampled chart: the smallest "round" width (so buckets start on whole minutes,
 * hours or days of the grid) that keeps a range within `maxPoints` buckets.
 */
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const BUCKET_WIDTHS_SECONDS = [
  1,
  5,
  10,
  30,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  30 * DAY,
] as const;

export function chooseBucketSeconds(rangeMs: number, maxPoints: number): number {
  const needed = Math.ceil(rangeMs / 1000 / Math.max(1, maxPoints));
  const round = BUCKET_WIDTHS_SECONDS.find((width) => width >= needed);
  // Beyond the table (ranges of decades), whole multiples of 30 days.
  return round ?? Math.ceil(needed / (30 * DAY)) * 30 * DAY;
}
