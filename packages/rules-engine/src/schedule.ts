import { parseTimeOfDay } from '@iot/domain';
import type { LocalTime } from './local-time';
import type { Rule } from './types';

/**
 * Whether a rule's schedule admits an instant, given its wall-clock view in the company's zone.
 *
 * - No start/end: all day on the schedule's weekdays. No weekdays (or an empty list): every day.
 * - start < end: active from start (inclusive) to end (exclusive) on the listed weekdays.
 * - start > end (across midnight, e.g. 22:00-06:00): the window opens at start on a listed weekday and
 *   runs into the next day; the weekday that counts is the one the window STARTED on, so Tuesday 02:00
 *   belongs to Monday's window.
 * - start = end: a full 24 hours from start.
 * Comparisons are on wall-clock time, so at the spring-forward gap a window that lies wholly inside
 * 02:00-03:00 does not occur that day and one that overlaps it opens at 03:00; in the repeated autumn
 * hour a window in 02:00-03:00 is active during both passes.
 */
export function isInSchedule(rule: Rule, time: LocalTime): boolean {
  const weekdays = rule.scheduleWeekdays;
  const dayAllowed = (weekday: number): boolean =>
    !weekdays || weekdays.length === 0 || weekdays.includes(weekday);
  const start = parseTimeOfDay(rule.scheduleStart);
  const end = parseTimeOfDay(rule.scheduleEnd);
  if (start === null || end === null) return dayAllowed(time.weekday);
  const now = time.secondsOfDay;
  if (start < end) return dayAllowed(time.weekday) && now >= start && now < end;
  // Across midnight (or 24 h when equal): the part after start belongs to today, the part before end
  // to yesterday's window.
  if (now >= start) return dayAllowed(time.weekday);
  const yesterday = time.weekday === 1 ? 7 : time.weekday - 1;
  return now < end && dayAllowed(yesterday);
}
