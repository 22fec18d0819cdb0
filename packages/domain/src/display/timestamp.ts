/** A point in time as the API and devices send it: Date, epoch milliseconds or an ISO string. */
export type TimestampInput = Date | number | string | null | undefined;

/** Epoch milliseconds, or null for a missing or unreadable timestamp. */
export function toEpochMs(value: TimestampInput): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}
