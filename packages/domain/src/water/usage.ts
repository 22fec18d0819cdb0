/**
 * Water usage from cumulative meters (issue #26), pure: the API computes the association's dashboard with
 * it and the console may show the same arithmetic. Periods (hour, day, water year) are taken in the
 * association's time zone, so a day across a daylight-saving change has 23 or 25 hours and still one total.
 */
import { TZDate } from '@date-fns/tz';
import { addYears, differenceInMilliseconds, format, startOfDay, startOfHour, subDays } from 'date-fns';

export interface CounterReading {
  at: Date;
  /** The meter's cumulative counter, in the meter's own unit. */
  value: number;
}

export interface MeterSettings {
  /** m³ per counter unit before the unit: the counter × factor is in `unit`. */
  meterFactor: number;
  unit: 'm3' | 'l';
  /** The counter's wrap-around value (e.g. 99999 for a five-digit register), if it has one. */
  rolloverAt?: number;
}

/** Volume drawn between two readings, in m³, attributed to the interval's end. */
export interface UsageStep {
  from: Date;
  to: Date;
  volume: number;
  /** The counter dropped: a reset (counted from zero) or a rollover (counted across the wrap). */
  counterDropped: boolean;
}

const UNIT_TO_M3 = { m3: 1, l: 0.001 } as const;

/** A drop to at most this share of the previous reading is a reset (a new or cleared meter). */
const RESET_RATIO = 0.5;

/**
 * Steps between consecutive readings. A counter that drops is never negative use: with `rolloverAt` and a
 * previous value in its last tenth it wrapped (max − previous + new); a drop to half or less was a reset and
 * the new value is what was drawn since; a smaller step back drew nothing.
 */
export function usageSteps(readings: readonly CounterReading[], meter: MeterSettings): UsageStep[] {
  const toM3 = meter.meterFactor * UNIT_TO_M3[meter.unit];
  const sorted = [...readings].sort((a, b) => a.at.getTime() - b.at.getTime());
  const steps: UsageStep[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    let delta = cur.value - prev.value;
    const dropped = delta < 0;
    if (dropped) {
      const wrapped = meter.rolloverAt !== undefined && prev.value >= meter.rolloverAt * 0.9;
      // A reset starts again near zero; a counter that only stepped back a little (a corrected or jittering
      // reading) drew nothing, and counting its whole value would invent a year's water in an hour.
      const reset = cur.value <= prev.value * RESET_RATIO;
      delta = wrapped ? meter.rolloverAt! - prev.value + cur.value : reset ? cur.value : 0;
    }
    steps.push({ from: prev.at, to: cur.at, volume: Math.max(0, delta) * toM3, counterDropped: dropped });
  }
  return steps;
}

/** Sums steps per period key (the key of each step's end, in the time zone). */
function sumBy(
  steps: readonly UsageStep[],
  key: (at: TZDate) => string,
  timeZone: string,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of steps) {
    const k = key(new TZDate(s.to.getTime() - 1, timeZone));
    out.set(k, (out.get(k) ?? 0) + s.volume);
  }
  return out;
}

/** m³ per hour, keyed by the hour's start as an ISO instant (unambiguous across DST). */
export function hourlyUsage(steps: readonly UsageStep[], timeZone: string): Map<string, number> {
  return sumBy(steps, (at) => new Date(startOfHour(at).getTime()).toISOString(), timeZone);
}

/** m³ per local day (yyyy-MM-dd in the time zone). */
export function dailyUsage(steps: readonly UsageStep[], timeZone: string): Map<string, number> {
  return sumBy(steps, (at) => format(startOfDay(at), 'yyyy-MM-dd'), timeZone);
}

/** The last `n` local days up to today (yyyy-MM-dd in the time zone), oldest first. */
export function lastLocalDays(now: Date, timeZone: string, n: number): string[] {
  const today = new TZDate(now.getTime(), timeZone);
  return Array.from({ length: n }, (_, i) => format(subDays(today, n - 1 - i), 'yyyy-MM-dd'));
}

/** The water year containing `now`: from the first of `startMonth` (1–12), local midnight, for a year. */
export function waterYear(now: Date, startMonth: number, timeZone: string): { start: Date; end: Date } {
  const local = new TZDate(now.getTime(), timeZone);
  const year = local.getMonth() + 1 >= startMonth ? local.getFullYear() : local.getFullYear() - 1;
  const start = new TZDate(year, startMonth - 1, 1, 0, 0, 0, timeZone);
  return { start: new Date(start.getTime()), end: new Date(addYears(start, 1).getTime()) };
}

export interface MemberUsageInput {
  used: number;
  allowancePerYear: number | null;
  allowancePerHour: number | null;
  maxHourly: number;
  year: { start: Date; end: Date };
  now: Date;
  lastReadingAt: Date | null;
}

export interface MemberUsageFigures {
  used: number;
  allowance: number | null;
  /** used / allowance × 100, null without an allowance. */
  percent: number | null;
  remaining: number | null;
  /** Use at the water year's end if the pace so far continues. */
  projected: number;
  maxHourly: number;
  hourlyCap: number | null;
  hourlyCapExceeded: boolean;
  lastReadingAgeMinutes: number | null;
}

export function memberUsageFigures(input: MemberUsageInput): MemberUsageFigures {
  const { used, allowancePerYear: allowance, allowancePerHour: cap } = input;
  const elapsed = differenceInMilliseconds(input.now, input.year.start);
  const length = differenceInMilliseconds(input.year.end, input.year.start);
  return {
    used,
    allowance,
    percent: allowance ? (used / allowance) * 100 : null,
    remaining: allowance === null ? null : allowance - used,
    projected: elapsed > 0 ? (used * length) / Math.min(elapsed, length) : used,
    maxHourly: input.maxHourly,
    hourlyCap: cap,
    hourlyCapExceeded: cap !== null && input.maxHourly > cap,
    lastReadingAgeMinutes: input.lastReadingAt
      ? Math.max(0, Math.floor((input.now.getTime() - input.lastReadingAt.getTime()) / 60_000))
      : null,
  };
}

export type UsageWarningKind = 'year_80' | 'year_100' | 'hour_cap';

/** The warnings the figures call for; the caller sends each once per period (nwa_usage_warnings). */
export function usageWarnings(figures: MemberUsageFigures): UsageWarningKind[] {
  const out: UsageWarningKind[] = [];
  if (figures.percent !== null && figures.percent >= 80) out.push('year_80');
  if (figures.percent !== null && figures.percent >= 100) out.push('year_100');
  if (figures.hourlyCapExceeded) out.push('hour_cap');
  return out;
}
