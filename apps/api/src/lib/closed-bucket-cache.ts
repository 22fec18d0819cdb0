/**
 * Closed chart buckets in memory (issue #30): a dashboard's year chart reloads read only the buckets
 * closed since, and the raw edges of the range, instead of a year of rollups. Kept per device, company,
 * width and fields (the key packages/db builds, the device id first as the scope) until the database
 * announces a late row or a deleted rollup of the device (migrations 0045, 0046, plugins/answer-cache.ts), and
 * for CLOSED_BUCKETS_TTL_MS at most. Like every answer cache, on only with the session cache (tests that
 * edit by SQL switch both off), and serving nothing until its LISTEN is in effect.
 */
import type { ClosedBucketCache, KeptBuckets } from '@iot/db';
import { AnnouncedCache } from './announced-cache';

/** Every change is announced by the database itself, so an entry may live far longer than an answer. */
export const CLOSED_BUCKETS_TTL_MS = 10 * 60_000;
/** About a few hundred open year charts; past it the cache starts over (a year is 365 day buckets). */
const MAX_ENTRIES = 2_000;

export type ClosedBuckets = AnnouncedCache<KeptBuckets> & ClosedBucketCache;

export function createClosedBucketCache(sessionCacheSeconds: number): ClosedBuckets {
  return new AnnouncedCache<KeptBuckets>(sessionCacheSeconds > 0 ? CLOSED_BUCKETS_TTL_MS : 0, {
    maxEntries: MAX_ENTRIES,
    live: false,
    scopeOf: (key) => key.slice(0, key.indexOf(' ')),
  });
}
