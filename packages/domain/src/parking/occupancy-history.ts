/**
 * Occupancy history of a car park (issue #25): the area's counts are recorded at each change
 * (parking_area_counts); a bucket's value is the time-weighted mean over the bucket, and the share of
 * time full is the part of the range during which free slots were 0.
 */
export interface CountSample {
  at: number;
  capacity: number;
  free: number | null;
  occupied: number;
  unknown: number;
}

export interface OccupancyBucket {
  /** Start of the bucket (ms). */
  at: number;
  free: number | null;
  occupied: number | null;
  unknown: number | null;
  /** 0..1: part of the bucket the area was full. */
  fullShare: number | null;
}

/**
 * Buckets of `bucketMs` from `from` to `to`. `samples` ascending, the first one may lie before `from`
 * (the state the range starts in). A bucket before the first sample has nulls.
 */
export function occupancyBuckets(
  samples: readonly CountSample[],
  range: { from: number; to: number; bucketMs: number },
): OccupancyBucket[] {
  const buckets: OccupancyBucket[] = [];
  for (let start = range.from; start < range.to; start += range.bucketMs) {
    const end = Math.min(start + range.bucketMs, range.to);
    let known = 0;
    let free = 0;
    let occupied = 0;
    let unknown = 0;
    let full = 0;
    let freeKnown = 0;
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i]!;
      const from = Math.max(s.at, start);
      const until = Math.min(samples[i + 1]?.at ?? end, end);
      const span = until - from;
      if (span <= 0) continue;
      known += span;
      occupied += s.occupied * span;
      unknown += s.unknown * span;
      if (s.free !== null) {
        free += s.free * span;
        freeKnown += span;
        if (s.free === 0) full += span;
      }
    }
    buckets.push({
      at: start,
      free: freeKnown > 0 ? free / freeKnown : null,
      occupied: known > 0 ? occupied / known : null,
      unknown: known > 0 ? unknown / known : null,
      fullShare: freeKnown > 0 ? full / freeKnown : null,
    });
  }
  return buckets;
}

/** The share of the whole range the area was full (of the time its free slots were known). */
export function fullShareOf(buckets: readonly OccupancyBucket[]): number | null {
  let known = 0;
  let full = 0;
  for (const b of buckets) {
    if (b.fullShare === null) continue;
    known++;
    full += b.fullShare;
  }
  return known > 0 ? full / known : null;
}
