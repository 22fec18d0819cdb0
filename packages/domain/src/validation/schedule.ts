import { fail, type ValidationError } from './types';

/** A rule's active window: local times HH:MM (or HH:MM:SS) and the weekdays it applies on. */
export interface Schedule {
  start: string;
  end: string;
  /** Weekday numbers or names, or a map weekday -> active. */
  weekdays: readonly (number | string)[] | Readonly<Record<string, boolean>>;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** Seconds since midnight, or null when the text is not a valid time of day. */
export function parseTimeOfDay(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = TIME.exec(value);
  if (!match) return null;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0);
}

function activeWeekdays(weekdays: Schedule['weekdays'] | undefined): number {
  if (Array.isArray(weekdays)) return weekdays.length;
  if (weekdays && typeof weekdays === 'object')
    return Object.values(weekdays).filter((on) => on === true).length;
  return 0;
}

/** Start time before end time, and at least one weekday (spec section 5). */
export function validateSchedule(value: unknown): ValidationError | null {
  if (typeof value !== 'object' || value === null) return fail('error.schedule-time');
  const schedule = value as Partial<Schedule>;
  const start = parseTimeOfDay(schedule.start);
  const end = parseTimeOfDay(schedule.end);
  if (start === null || end === null || start >= end) return fail('error.schedule-time');
  return activeWeekdays(schedule.weekdays) > 0 ? null : fail('error.schedule-weekdays');
}
