/**
 * Chart periods of the data drawer (spec section 2): the ranges 24 hours, 1 week, 1 month, 6 months and
 * 1 year back from now, the calendar tabs day/week/month/year (with previous/next) and a free range.
 * Calendar periods use the browser's local time, like the dates the user picks.
 */
export const LAST_SPANS = ['24h', '1w', '1m', '6m', '1y'] as const;
export type LastSpan = (typeof LAST_SPANS)[number];
export const CALENDAR_TABS = ['day', 'week', 'month', 'year'] as const;
export type CalendarTab = (typeof CALENDAR_TABS)[number];

export type Period =
  | { kind: 'last'; span: LastSpan }
  | { kind: CalendarTab; anchor: number }
  | { kind: 'range'; from: number; to: number };

export interface Bounds {
  from: number;
  to: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function startOfDay(ms: number): Date {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d;
}

/** Start of the calendar period holding `ms` (weeks start on Monday). */
function calendarStart(kind: CalendarTab, ms: number): Date {
  const d = startOfDay(ms);
  if (kind === 'week') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  if (kind === 'month') d.setDate(1);
  if (kind === 'year') d.setMonth(0, 1);
  return d;
}

function addCalendar(kind: CalendarTab, date: Date, steps: number): Date {
  const d = new Date(date);
  if (kind === 'day') d.setDate(d.getDate() + steps);
  if (kind === 'week') d.setDate(d.getDate() + 7 * steps);
  if (kind === 'month') d.setMonth(d.getMonth() + steps);
  if (kind === 'year') d.setFullYear(d.getFullYear() + steps);
  return d;
}

export function periodBounds(period: Period, now: number): Bounds {
  switch (period.kind) {
    case 'last': {
      const start = new Date(now);
      if (period.span === '24h') start.setTime(now - DAY);
      if (period.span === '1w') start.setTime(now - 7 * DAY);
      if (period.span === '1m') start.setMonth(start.getMonth() - 1);
      if (period.span === '6m') start.setMonth(start.getMonth() - 6);
      if (period.span === '1y') start.setFullYear(start.getFullYear() - 1);
      return { from: start.getTime(), to: now };
    }
    case 'range':
      // The end date is inclusive: the range runs to the end of that day.
      return { from: startOfDay(period.from).getTime(), to: startOfDay(period.to).getTime() + DAY - 1 };
    default: {
      const start = calendarStart(period.kind, period.anchor);
      return { from: start.getTime(), to: addCalendar(period.kind, start, 1).getTime() - 1 };
    }
  }
}

/** The previous (-1) or next (+1) calendar period; other periods have no neighbours. */
export function shiftPeriod(period: Period, steps: -1 | 1): Period {
  if (period.kind === 'last' || period.kind === 'range') return period;
  return {
    kind: period.kind,
    anchor: addCalendar(period.kind, calendarStart(period.kind, period.anchor), steps).getTime(),
  };
}

/** Next is pointless once the period reaches now. */
export function canGoNext(period: Period, now: number): boolean {
  return period.kind !== 'last' && period.kind !== 'range' && periodBounds(period, now).to < now;
}

/** A date input's yyyy-mm-dd in local time, and back. */
export function toDateInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function fromDateInput(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(d.getTime()) ? null : d.getTime();
}
