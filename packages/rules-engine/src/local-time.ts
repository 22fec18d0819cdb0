import { tzOffset } from '@date-fns/tz';

/** The company's zone when none is configured (spec: Europe/Berlin). */
export const DEFAULT_TIME_ZONE = 'Europe/Berlin';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
// Offsets change only at instants that are whole quarter hours in every zone in use, so one lookup per
// UTC quarter hour is exact; the memo saves an Intl call per rule and uplink on the hot path.
const QUARTER_MS = 900_000;
const offsetMemo = new Map<string, number>();

/** Wall-clock view of an instant in a zone. */
export interface LocalTime {
  /** ISO weekday of the local date, 1 Monday .. 7 Sunday. */
  weekday: number;
  /** Seconds since local midnight (wall clock). */
  secondsOfDay: number;
  /** Days since 1970-01-01 of the local date. */
  dayNumber: number;
  /** Instant (epoch ms) at which the current local hour began: distinct for the repeated autumn hour. */
  hourStart: number;
}

function offsetMs(timeZone: string, at: number): number {
  const key = `${timeZone}|${Math.floor(at / QUARTER_MS)}`;
  let offset = offsetMemo.get(key);
  if (offset === undefined) {
    offset = tzOffset(timeZone, new Date(at)) * 60_000;
    // A bounded memo: the working set is a few quarter hours per zone and batch.
    if (offsetMemo.size > 10_000) offsetMemo.clear();
    offsetMemo.set(key, offset);
  }
  return offset;
}

export function localTime(at: number, timeZone: string): LocalTime {
  const offset = offsetMs(timeZone, at);
  const local = at + offset;
  const dayNumber = Math.floor(local / DAY_MS);
  const msOfDay = local - dayNumber * DAY_MS;
  // 1970-01-01 was a Thursday (ISO 4).
  const weekday = ((((dayNumber + 3) % 7) + 7) % 7) + 1;
  return {
    weekday,
    secondsOfDay: Math.floor(msOfDay / 1000),
    dayNumber,
    hourStart: at - (local % HOUR_MS),
  };
}
