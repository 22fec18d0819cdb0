import type { ChannelKind } from '../context';

/** A token bucket: `perSecond` sustained, up to `burst` at once. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export type ChannelLimits = Record<ChannelKind, RateLimit>;

export interface ChannelLimiter {
  /**
   * Takes `count` sends of `kind` if the channel's bucket holds them and returns 0; otherwise takes
   * nothing and returns how many ms until it will (the job is put back that long, see
   * handle-notify-action.ts). More than the burst at once is let through when the bucket is full, so a
   * job with more recipients than the burst still runs.
   */
  take(kind: ChannelKind, count: number): number;
}

/** One bucket per channel, in this worker process (like the queue limiter: limits are per worker). */
export function createChannelLimiter(limits: ChannelLimits, clock: () => number = Date.now): ChannelLimiter {
  const buckets = new Map<ChannelKind, { tokens: number; at: number }>();
  return {
    take(kind, count) {
      const limit = limits[kind];
      const now = clock();
      const bucket = buckets.get(kind) ?? { tokens: limit.burst, at: now };
      bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
      bucket.at = now;
      buckets.set(kind, bucket);
      const need = Math.min(count, limit.burst);
      if (bucket.tokens >= need) {
        bucket.tokens -= count;
        return 0;
      }
      return Math.ceil(((need - bucket.tokens) / limit.perSecond) * 1000);
    },
  };
}
