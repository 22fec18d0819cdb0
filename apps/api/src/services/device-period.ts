/**
 * The period of a data request (GET /core/data/{id}, battery, logs): tsstart and tsend as ISO 8601 text
 * or epoch milliseconds. Anything unreadable, or an end before the start, is code 10002 (period type
 * undefined); nothing is guessed from a bad value.
 */
import type { DataRange } from '@iot/db';
import { apiError } from '../lib/errors';

const DAY_MS = 24 * 60 * 60 * 1000;

/** One bound: digits are epoch milliseconds, anything else must parse as an ISO date. */
export function parseTimestamp(value: string | number | undefined, name: string): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const text = String(value).trim();
  const ms = /^-?\d+$/.test(text) ? Number(text) : /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  const date = new Date(ms);
  if (!Number.isFinite(ms) || Number.isNaN(date.getTime())) {
    throw apiError('PERIOD_TYPE_UNDEFINED', { [name]: value });
  }
  return date;
}

/**
 * The range [from, to) of a request. Without tsend the range ends now; without tsstart it starts
 * `defaultSpanMs` (24 hours: the console's shortest chart range) before the end. tsend is inclusive for
 * the caller, so the exclusive bound is one millisecond later.
 */
export function parsePeriod(
  query: { tsstart?: string | number; tsend?: string | number },
  options: { now?: Date; defaultSpanMs?: number } = {},
): DataRange {
  const start = parseTimestamp(query.tsstart, 'tsstart');
  const end = parseTimestamp(query.tsend, 'tsend');
  const to = new Date((end ?? options.now ?? new Date()).getTime() + (end ? 1 : 0));
  const from = start ?? new Date(to.getTime() - (options.defaultSpanMs ?? DAY_MS));
  if (from.getTime() >= to.getTime()) {
    throw apiError('PERIOD_TYPE_UNDEFINED', { tsstart: query.tsstart, tsend: query.tsend });
  }
  return { from, to };
}
