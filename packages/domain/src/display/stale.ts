import { STALE_DATA_HOURS } from '../constants/session';
import { type TimestampInput, toEpochMs } from './timestamp';

const STALE_MS = STALE_DATA_HOURS * 60 * 60 * 1000;

/** Data older than 8 hours is flagged as a warning (spec section 4); a missing timestamp is not "stale". */
export function isStale(timestamp: TimestampInput, now: Date | number): boolean {
  const ms = toEpochMs(timestamp);
  if (ms === null) return false;
  return (typeof now === 'number' ? now : now.getTime()) - ms > STALE_MS;
}
