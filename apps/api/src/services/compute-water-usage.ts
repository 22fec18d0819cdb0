/**
 * The water dashboard's figures (issue #26): per member, this water year's use from the cumulative
 * meters of the shared devices counting against it, against its allowance and the hourly cap, in the
 * association's time zone (pure arithmetic in @iot/domain, water/usage). The meter readings are read as
 * the acting company, so a caller sees figures only of the devices row-level security lets it see.
 *
 * Warnings (80 % and 100 % of the yearly allowance, an hour over the hourly cap) are sent when the figures
 * are computed, once each per member and period (nwa_usage_warnings), as a system message to the
 * association and to the member.
 */
import {
  claimUsageWarning,
  companyCards,
  type Db,
  findNwaSettings,
  findSharedDevice,
  insertWaterWarningMessage,
  listNwaMembers,
  listSharedDevices,
  type NwaSettingsRecord,
  type Queryable,
  readMeterReadings,
  type SharedDeviceRecord,
} from '@iot/db';
import {
  dailyUsage,
  hourlyUsage,
  lastLocalDays,
  type MemberUsageFigures,
  memberUsageFigures,
  type UsageStep,
  type UsageWarningKind,
  usageSteps,
  usageWarnings,
  waterYear,
} from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';
import { inWaterScope, requireWaterRole } from './water-access';

export interface MemberUsageView extends MemberUsageFigures {
  companyId: number;
  name: string;
  daily: number[];
  maxHourlyAt: string | null;
}

export interface WaterUsageView {
  nwaId: number;
  year: { start: Date; end: Date };
  settings: NwaSettingsRecord;
  totalUsed: number;
  maxHourly: number;
  members: MemberUsageView[];
}

interface MemberSteps {
  steps: UsageStep[];
  lastReadingAt: Date | null;
}

async function stepsPerMember(
  tx: Queryable,
  devices: SharedDeviceRecord[],
  from: Date,
  to: Date,
): Promise<Map<number, MemberSteps>> {
  const out = new Map<number, MemberSteps>();
  for (const d of devices) {
    if (d.countsAgainstCompanyId === null) continue;
    const readings = await readMeterReadings(tx, d, from, to);
    const entry = out.get(d.countsAgainstCompanyId) ?? { steps: [], lastReadingAt: null };
    entry.steps.push(...usageSteps(readings, d));
    const last = readings.at(-1)?.at ?? null;
    if (last && (!entry.lastReadingAt || last > entry.lastReadingAt)) entry.lastReadingAt = last;
    out.set(d.countsAgainstCompanyId, entry);
  }
  return out;
}

function maxOf(hours: Map<string, number>): { value: number; at: string | null } {
  let best = { value: 0, at: null as string | null };
  for (const [at, value] of hours) if (value > best.value) best = { value, at };
  return best;
}

export async function computeWaterUsage(
  db: Db,
  auth: AuthContext,
  nwaId: number,
  now = new Date(),
): Promise<WaterUsageView> {
  const read = await inWaterScope(db, auth, async (tx) => {
    await requireWaterRole(tx, auth, nwaId);
    const settings = await findNwaSettings(tx, nwaId);
    const year = waterYear(now, settings.waterYearStartMonth, settings.timeZone);
    const members = await listNwaMembers(tx, nwaId);
    const steps = await stepsPerMember(tx, await listSharedDevices(tx, nwaId), year.start, now);
    return { settings, year, members, steps };
  });
  const { settings, year } = read;
  const cards = await companyCards(
    db,
    read.members.map((m) => m.companyId),
  );
  const days = lastLocalDays(now, settings.timeZone, 30);
  const allHours = new Map<string, number>();
  const members = read.members.map((m): MemberUsageView => {
    const own = read.steps.get(m.companyId) ?? { steps: [], lastReadingAt: null };
    const hours = hourlyUsage(own.steps, settings.timeZone);
    for (const [h, v] of hours) allHours.set(h, (allHours.get(h) ?? 0) + v);
    const daily = dailyUsage(own.steps, settings.timeZone);
    const peak = maxOf(hours);
    return {
      companyId: m.companyId,
      name: cards.get(m.companyId)?.name ?? `#${m.companyId}`,
      ...memberUsageFigures({
        used: own.steps.reduce((sum, s) => sum + s.volume, 0),
        allowancePerYear: m.allowancePerYear,
        allowancePerHour: m.allowancePerHour,
        maxHourly: peak.value,
        year,
        now,
        lastReadingAt: own.lastReadingAt,
      }),
      daily: days.map((d) => daily.get(d) ?? 0),
      maxHourlyAt: peak.at,
    };
  });
  await sendDueWarnings(db, nwaId, year.start, members);
  return {
    nwaId,
    year,
    settings,
    totalUsed: members.reduce((sum, m) => sum + m.used, 0),
    maxHourly: maxOf(allHours).value,
    members,
  };
}

const WARNING_TEXT: Record<
  UsageWarningKind,
  (name: string, value: number) => { subject: string; body: string }
> = {
  year_80: (name, v) => ({
    subject: `Water allowance 80 % reached: ${name}`,
    body: `${name} has used ${v.toFixed(1)} % of its yearly water allowance.`,
  }),
  year_100: (name, v) => ({
    subject: `Water allowance used up: ${name}`,
    body: `${name} has used ${v.toFixed(1)} % of its yearly water allowance.`,
  }),
  hour_cap: (name, v) => ({
    subject: `Hourly water cap exceeded: ${name}`,
    body: `${name} drew ${v.toFixed(2)} m³ in one hour, more than its hourly cap.`,
  }),
};

/** Each due warning once per member and period, to the association and to the member, in one transaction. */
async function sendDueWarnings(
  db: Db,
  nwaId: number,
  yearStart: Date,
  members: MemberUsageView[],
): Promise<void> {
  const due = members.flatMap((m) => usageWarnings(m).map((kind) => ({ m, kind })));
  if (due.length === 0) return;
  await db.transaction(async (tx) => {
    for (const { m, kind } of due) {
      const value = kind === 'hour_cap' ? m.maxHourly : (m.percent ?? 0);
      const periodStart = kind === 'hour_cap' && m.maxHourlyAt ? new Date(m.maxHourlyAt) : yearStart;
      if (!(await claimUsageWarning(tx, { nwaId, companyId: m.companyId, kind, periodStart, value })))
        continue;
      const text = WARNING_TEXT[kind](m.name, value);
      const params = { nwa_id: nwaId, member: m.name, value, period_start: periodStart.toISOString() };
      for (const to of [nwaId, m.companyId]) {
        await insertWaterWarningMessage(tx, to, { kind: `water_${kind}`, ...text, params });
      }
    }
  });
}

export interface MeterHistoryView {
  deviceId: number;
  readings: { at: Date; value: number }[];
  daily: { day: string; volume: number }[];
  counterResets: number;
}

/** The water device history drawer: a shared meter's readings and the daily use derived from them. */
export async function readWaterMeterHistory(
  db: Db,
  auth: AuthContext,
  nwaId: number,
  deviceId: number,
  range: { from?: Date; to?: Date },
): Promise<MeterHistoryView> {
  const to = range.to ?? new Date();
  const from = range.from ?? new Date(to.getTime() - 30 * 86_400_000);
  if (!(from < to) || to.getTime() - from.getTime() > 400 * 86_400_000) {
    throw apiError('INPUT_ERROR', { fields: { from: { key: 'error.invalid' } } });
  }
  return inWaterScope(db, auth, async (tx) => {
    await requireWaterRole(tx, auth, nwaId);
    const device = await findSharedDevice(tx, nwaId, deviceId);
    if (!device) throw apiError('SHARED_DEVICE_NOT_FOUND');
    const settings = await findNwaSettings(tx, nwaId);
    const readings = await readMeterReadings(tx, device, from, to);
    const steps = usageSteps(readings, device);
    const daily = dailyUsage(steps, settings.timeZone);
    return {
      deviceId,
      readings,
      daily: [...daily].map(([day, volume]) => ({ day, volume })),
      counterResets: steps.filter((s) => s.counterDropped).length,
    };
  });
}
