import { DEFAULT_TIME_ZONE } from '../constants/session';
import { type TimestampInput, toEpochMs } from './timestamp';

/** Last-online buckets (spec section 4). */
export const LAST_ONLINE_BUCKETS = [
  'today',
  'yesterday',
  'last-7-days',
  'last-14-days',
  'last-30-days',
  'more-than-30-days',
  'n-a',
] as const;
export type LastOnlineBucket = (typeof LAST_ONLINE_BUCKETS)[number];

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Days since 1970-01-01 of the calendar date the instant falls on in the time zone. */
function calendarDay(ms: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(ms).map((p) => [p.type, p.value]));
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) / 86_400_000;
}

/**
 * Buckets a last-online time by calendar days before `now` in the company's time zone (Europe/Berlin
 * by default), so "yesterday" means the previous date there, not 24 hours ago. A time in the future
 * (clock skew) counts as today.
 */
export function lastOnlineBucket(
  timestamp: TimestampInput,
  now: Date | number,
  timeZone: string = DEFAULT_TIME_ZONE,
): LastOnlineBucket {
  const ms = toEpochMs(timestamp);
  if (ms === null) return 'n-a';
  const days =
    calendarDay(typeof now === 'number' ? now : now.getTime(), timeZone) - calendarDay(ms, timeZone);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days <= 7) return 'last-7-days';
  if (days <= 14) return 'last-14-days';
  if (days <= 30) return 'last-30-days';
  return 'more-than-30-days';
}
