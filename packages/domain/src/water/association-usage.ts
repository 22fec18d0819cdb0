/**
 * An association's figures for one water year (issue #26), pure: the API's dashboard and the rules
 * worker's warning timer compute them alike from the meters' readings. Which warnings are due, and their
 * wording in German and English for email and SMS (system messages are worded by the console from the
 * message's kind and params).
 */
import { userLanguage } from '../i18n/language';
import { SERVER_TEXTS } from '../texts/server-texts';
import {
  type CounterReading,
  dailyUsage,
  hourlyUsage,
  lastLocalDays,
  type MemberUsageFigures,
  type MeterSettings,
  memberUsageFigures,
  type UsageWarningKind,
  usageSteps,
} from './usage';

export interface UsageMeter extends MeterSettings {
  /** The member the meter's consumption counts against (null: nobody). */
  countsAgainst: number | null;
  readings: readonly CounterReading[];
}

export interface UsageMember {
  companyId: number;
  allowancePerYear: number | null;
  allowancePerHour: number | null;
}

export interface MemberUsage extends MemberUsageFigures {
  companyId: number;
  /** m³ per local day of the last `days` days, oldest first. */
  daily: number[];
  /** Start of the hour with the highest flow (ISO instant), null without use. */
  maxHourlyAt: string | null;
  /** m³ per hour, keyed by the hour's start (ISO instant). */
  hours: Map<string, number>;
}

export interface AssociationUsage {
  members: MemberUsage[];
  totalUsed: number;
  /** The association's highest hourly flow (all members together). */
  maxHourly: number;
}

function peak(hours: Map<string, number>): { value: number; at: string | null } {
  let best = { value: 0, at: null as string | null };
  for (const [at, value] of hours) if (value > best.value) best = { value, at };
  return best;
}

export function associationUsage(input: {
  members: readonly UsageMember[];
  meters: readonly UsageMeter[];
  timeZone: string;
  year: { start: Date; end: Date };
  now: Date;
  days?: number;
}): AssociationUsage {
  const { timeZone, year, now } = input;
  const days = lastLocalDays(now, timeZone, input.days ?? 30);
  const allHours = new Map<string, number>();
  const members = input.members.map((m): MemberUsage => {
    const meters = input.meters.filter((d) => d.countsAgainst === m.companyId);
    const steps = meters.flatMap((d) => usageSteps(d.readings, d));
    const lastReadingAt = meters
      .map((d) => d.readings.at(-1)?.at)
      .reduce<Date | null>((a, b) => (b && (!a || b > a) ? b : a), null);
    const hours = hourlyUsage(steps, timeZone);
    for (const [h, v] of hours) allHours.set(h, (allHours.get(h) ?? 0) + v);
    const daily = dailyUsage(steps, timeZone);
    const top = peak(hours);
    return {
      companyId: m.companyId,
      ...memberUsageFigures({
        used: steps.reduce((sum, s) => sum + s.volume, 0),
        allowancePerYear: m.allowancePerYear,
        allowancePerHour: m.allowancePerHour,
        maxHourly: top.value,
        year,
        now,
        lastReadingAt,
      }),
      daily: days.map((d) => daily.get(d) ?? 0),
      maxHourlyAt: top.at,
      hours,
    };
  });
  return {
    members,
    totalUsed: members.reduce((sum, m) => sum + m.used, 0),
    maxHourly: peak(allHours).value,
  };
}

export interface DueWarning {
  kind: UsageWarningKind;
  /** The water year's start (yearly warnings) or the hour's start (hourly cap): sent once per period. */
  periodStart: Date;
  /** Percent of the allowance, or m³ in the hour. */
  value: number;
}

/** Hours over the cap count for a warning while they are this recent (older ones were judged already). */
const HOUR_CAP_WINDOW_MS = 48 * 3_600_000;

/**
 * The warnings a member's figures call for: 80 % and 100 % of the yearly allowance (once per water year),
 * and every recent hour over its hourly cap (once per hour).
 */
export function dueUsageWarnings(m: MemberUsage, year: { start: Date }, now: Date): DueWarning[] {
  const out: DueWarning[] = [];
  if (m.percent !== null && m.percent >= 80)
    out.push({ kind: 'year_80', periodStart: year.start, value: m.percent });
  if (m.percent !== null && m.percent >= 100)
    out.push({ kind: 'year_100', periodStart: year.start, value: m.percent });
  if (m.hourlyCap !== null) {
    for (const [hour, volume] of m.hours) {
      const start = new Date(hour);
      if (volume > m.hourlyCap && now.getTime() - start.getTime() <= HOUR_CAP_WINDOW_MS) {
        out.push({ kind: 'hour_cap', periodStart: start, value: volume });
      }
    }
  }
  return out;
}

export interface WarningTextInput {
  kind: UsageWarningKind;
  association: string;
  member: string;
  value: number;
  /** Valves the association has closed for this warning (year_100 with close_valves_at_limit). */
  valvesClosed?: boolean;
}

/**
 * Email subject and body and the SMS text of a usage warning, in German or English (else English): the
 * water kinds of SERVER_TEXTS, with the association's name below the line (mail) or before it (SMS).
 */
export function waterWarningText(
  w: WarningTextInput,
  locale: string,
): { subject: string; line: string; body: string; sms: string } {
  const language = userLanguage(locale, 'en');
  const params = { member: w.member, value: w.value, valves_closed: w.valvesClosed === true };
  const worded = SERVER_TEXTS[`water_${w.kind}`][language](params, language);
  const a = w.association;
  return {
    subject: worded.subject ?? '',
    line: worded.text,
    body: `${worded.text}\n\n${a}`,
    sms: `${a}: ${worded.text}`,
  };
}
