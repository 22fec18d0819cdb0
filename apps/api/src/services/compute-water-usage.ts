/**
 * The water dashboard's figures (issue #26): per member, this water year's use from the cumulative
 * meters of the shared devices counting against it, against its allowance and the hourly cap, in the
 * association's time zone (pure arithmetic in @iot/domain, water/association-usage). The meter readings
 * are read as the acting company, so a caller sees figures only of the devices row-level security lets
 * it see. Reading has no side effect: the warnings are the rules worker's timer's (apps/rules-worker,
 * water-warnings.ts).
 */
import {
  companyCards,
  type Db,
  findNwaSettings,
  findSharedDevice,
  listNwaMembers,
  listSharedDevices,
  type NwaSettingsRecord,
  readMeterReadings,
} from '@iot/db';
import { associationUsage, dailyUsage, type MemberUsage, usageSteps, waterYear } from '@iot/domain';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';
import { inWaterScope, requireWaterRole } from './water-access';

export interface MemberUsageView extends MemberUsage {
  name: string;
}

export interface WaterUsageView {
  nwaId: number;
  year: { start: Date; end: Date };
  settings: NwaSettingsRecord;
  totalUsed: number;
  maxHourly: number;
  members: MemberUsageView[];
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
    const meters = [];
    for (const d of await listSharedDevices(tx, nwaId)) {
      if (d.countsAgainstCompanyId === null) continue;
      meters.push({
        ...d,
        countsAgainst: d.countsAgainstCompanyId,
        readings: await readMeterReadings(tx, d, year.start, now),
      });
    }
    return { settings, year, members, meters };
  });
  const { settings, year } = read;
  const cards = await companyCards(
    db,
    read.members.map((m) => m.companyId),
  );
  const usage = associationUsage({
    members: read.members,
    meters: read.meters,
    timeZone: settings.timeZone,
    year,
    now,
  });
  return {
    nwaId,
    year,
    settings,
    totalUsed: usage.totalUsed,
    maxHourly: usage.maxHourly,
    members: usage.members.map((m) => ({ ...m, name: cards.get(m.companyId)?.name ?? `#${m.companyId}` })),
  };
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
