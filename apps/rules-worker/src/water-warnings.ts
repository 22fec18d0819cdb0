/**
 * Water usage warnings (issue #26), on the rules worker's timer: per association, this water year's use
 * of each member from the shared meters (the dashboard's arithmetic, @iot/domain association-usage), and
 * for each warning due (80 % and 100 % of the yearly allowance, an hour over the member's hourly cap) one
 * claim in nwa_usage_warnings, so it is sent once however often and wherever the timer runs. In the
 * claim's transaction: a system message to the association, its admin members and the member; after the
 * commit, notify.water jobs mail and text their main users and admins and, at 100 % where the association
 * enabled it, close the member's valves shared with control (the notifier's channels).
 *
 * The timer acts for the platform, not as a tenant: it reads every association's shares and readings.
 */
import type { NotifyWaterPayload } from '@iot/contracts/jobs';
import {
  claimUsageWarning,
  companyCards,
  type Db,
  findNwaSettings,
  insertWaterWarningMessage,
  listAllNwaIds,
  listControlValves,
  listNwaMembers,
  listSharedDevices,
  listWarningRecipients,
  type Queryable,
  readMeterReadings,
} from '@iot/db';
import { associationUsage, dueUsageWarnings, waterWarningText, waterYear } from '@iot/domain';

export interface WaterWarningsResult {
  /** Warnings claimed (sent for the first time) in this run. */
  warnings: number;
  jobs: NotifyWaterPayload[];
}

async function evaluateAssociation(tx: Queryable, nwaId: number, now: Date): Promise<WaterWarningsResult> {
  const out: WaterWarningsResult = { warnings: 0, jobs: [] };
  const members = await listNwaMembers(tx, nwaId);
  if (!members.some((m) => m.allowancePerYear !== null || m.allowancePerHour !== null)) return out;
  const settings = await findNwaSettings(tx, nwaId);
  const year = waterYear(now, settings.waterYearStartMonth, settings.timeZone);
  const meters = [];
  for (const d of await listSharedDevices(tx, nwaId)) {
    if (d.countsAgainstCompanyId === null) continue;
    meters.push({
      ...d,
      countsAgainst: d.countsAgainstCompanyId,
      readings: await readMeterReadings(tx, d, year.start, now),
    });
  }
  const usage = associationUsage({ members, meters, timeZone: settings.timeZone, year, now, days: 1 });
  const admins = members.filter((m) => m.isAdmin).map((m) => m.companyId);
  for (const m of usage.members) {
    const due = dueUsageWarnings(m, year, now);
    if (due.length === 0) continue;
    const companies = [...new Set([nwaId, ...admins, m.companyId])];
    const names = await companyNames(tx, [m.companyId]);
    for (const w of due) {
      const id = await claimUsageWarning(tx, { nwaId, companyId: m.companyId, ...w });
      if (id === null) continue;
      out.warnings++;
      const member = names.get(m.companyId) ?? `#${m.companyId}`;
      const value = Math.round(w.value * 10) / 10;
      // The English text for clients other than the console, which words the message by kind and params.
      const text = waterWarningText({ kind: w.kind, association: '', member, value }, 'en');
      const params = { nwa_id: nwaId, member, value, period_start: w.periodStart.toISOString() };
      for (const to of companies) {
        await insertWaterWarningMessage(tx, to, {
          kind: `water_${w.kind}`,
          subject: text.subject,
          body: text.line,
          params,
        });
      }
      for (const r of await listWarningRecipients(tx, companies)) {
        out.jobs.push({ warningId: id, channel: 'email', userId: r.userId, companyId: r.companyId });
        if (r.phone)
          out.jobs.push({ warningId: id, channel: 'sms', userId: r.userId, companyId: r.companyId });
      }
      if (w.kind === 'year_100' && settings.closeValvesAtLimit) {
        for (const v of await listControlValves(tx, nwaId, m.companyId)) {
          for (const valve of v.valves) {
            out.jobs.push({
              warningId: id,
              channel: 'valve',
              deviceId: v.deviceId,
              companyId: v.ownerCompanyId,
              valve,
            });
          }
        }
      }
    }
  }
  return out;
}

async function companyNames(tx: Queryable, ids: number[]): Promise<Map<number, string>> {
  const cards = await companyCards(tx, ids);
  return new Map([...cards].map(([id, c]) => [id, c.name]));
}

/** One run over every association; each association in its own transaction. */
export async function evaluateWaterWarnings(options: { db: Db; now: number }): Promise<WaterWarningsResult> {
  const now = new Date(options.now);
  const total: WaterWarningsResult = { warnings: 0, jobs: [] };
  for (const nwaId of await listAllNwaIds(options.db)) {
    const one = await options.db.transaction((tx) => evaluateAssociation(tx, nwaId, now));
    total.warnings += one.warnings;
    total.jobs.push(...one.jobs);
  }
  return total;
}
