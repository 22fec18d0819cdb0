import type { NotifyActionPayload } from '@iot/contracts';
import {
  type AlarmClearRow,
  type AlarmRow,
  clearAlarms,
  type DeviceLogRow,
  findOpenRuleAlarms,
  insertAlarms,
  insertDeviceLogRows,
  type Queryable,
  type RulesWorkerAction,
  type RulesWorkerDevice,
  type RulesWorkerRule,
  type RulesWorkerSensorCheck,
} from '@iot/db';
import { DEVICE_LOG_LEVEL } from '@iot/domain';
import type { AlarmDecision, Firing, Suppression, SuppressReason } from '@iot/rules-engine';

/** What the engine decided for one device, with the rows it decided about. */
export interface DeviceOutcome {
  device: RulesWorkerDevice;
  rules: ReadonlyMap<string, RulesWorkerRule>;
  checks: ReadonlyMap<string, RulesWorkerSensorCheck>;
  firings: readonly Firing<RulesWorkerAction>[];
  suppressed: readonly Suppression[];
  alarms: readonly AlarmDecision[];
  /** Uplinks older than the last one a rule or function evaluated, and the time they were evaluated at. */
  late: readonly { uplinkIndex: number; measuredAt: number; lastAt: number; evaluatedAt: number }[];
  /** The message id a firing or suppression belongs to: the uplink's, or a timer tick's stable id. */
  messageIdOf: (uplinkIndex: number | null, ruleId: string) => string;
}

/** Why a rule did not notify, in words an operator reads in the device log. */
export function describeSuppression(reason: SuppressReason, rule: RulesWorkerRule | undefined): string {
  switch (reason) {
    case 'schedule':
      return `outside its schedule (${rule?.scheduleStart ?? 'all day'}-${rule?.scheduleEnd ?? ''} on weekdays ${rule?.scheduleWeekdays.join(',') ?? ''})`;
    case 'max_actions':
      return `max actions reached (${rule?.maxActions} per ${rule?.maxActionsPeriodSeconds} s)`;
    case 'max_clicks':
      return `click counted, ${rule?.maxClicks} clicks needed`;
    case 'click_type':
      return `click type does not match ${rule?.clickType}`;
    case 'time_window':
      return `condition holds, waiting for its time window of ${rule?.timeWindowSeconds} s`;
    case 'not_edge':
      return 'no new episode (already fired while the condition holds, or no threshold crossing)';
    case 'first_value':
      return 'first value of the rule: no crossing yet';
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Writes what the engine decided, inside the batch's transaction: alarms raised and cleared (a raise
 * and clear of one episode within one batch becomes a cleared history row), one device log entry per
 * firing (info 5) and per suppression (debug 6) naming the rule and the reason, one per alarm raised
 * (warning 4) and cleared (info 5). Returns the notify jobs, one per action of each firing, which the
 * caller enqueues after the commit; each firing's log entry carries its jobs (`payload.jobs`), which is
 * what makes the log entries the worker's outbox (see README "Crash windows").
 */
export async function persistOutcomes(
  tx: Queryable,
  outcomes: readonly DeviceOutcome[],
  now: number,
): Promise<NotifyActionPayload[]> {
  const { jobs, logs } = await writeAlarms(tx, outcomes, now);
  await insertDeviceLogRows(tx, logs);
  return jobs;
}

/**
 * persistOutcomes up to its last statement: writes the alarms and returns the jobs with the device log
 * rows still to insert, so that a caller on PGlite can send that insert together with its next
 * statements (evaluateUplinkBatch). `pipelined`: the alarms' clear and insert are sent together, without
 * waiting for one reply before sending the next statement (PGlite's worker runs a transaction's
 * statements in the order they arrive; node-postgres must not be sent a second query on a client whose
 * first is running).
 */
export async function writeAlarms(
  tx: Queryable,
  outcomes: readonly DeviceOutcome[],
  now: number,
  options: { pipelined?: boolean } = {},
): Promise<{ jobs: NotifyActionPayload[]; logs: DeviceLogRow[] }> {
  const logs: DeviceLogRow[] = [];
  const inserts: AlarmRow[] = [];
  const clears: AlarmClearRow[] = [];
  // Per rule: the raises of this batch (time, ref), so a firing names the alarm of its episode.
  const raisesByRule = new Map<string, { at: number; ref: number }[]>();
  const created = iso(now);

  for (const outcome of outcomes) {
    const { device } = outcome;
    const base = { device_id: device.id, company_id: device.companyId, raw: null, created_at: created };
    const bySource = new Map<string, AlarmDecision[]>();
    for (const decision of outcome.alarms) {
      const key =
        decision.source.kind === 'rule' ? `r${decision.source.ruleId}` : `c${decision.source.sensorCheckId}`;
      bySource.set(key, [...(bySource.get(key) ?? []), decision]);
    }
    for (const decisions of bySource.values()) {
      let pending: AlarmDecision | undefined;
      for (const d of decisions) {
        const ruleId = d.source.kind === 'rule' ? Number(d.source.ruleId) : null;
        const checkId = d.source.kind === 'sensor_check' ? Number(d.source.sensorCheckId) : null;
        const name =
          ruleId !== null
            ? `Rule "${outcome.rules.get(String(ruleId))?.name ?? ruleId}"`
            : `Sensor check ${outcome.checks.get(String(checkId))?.kind ?? ''} #${checkId}`;
        logs.push({
          ...base,
          level: d.action === 'raise' ? DEVICE_LOG_LEVEL.warning : DEVICE_LOG_LEVEL.info,
          message: `${name}: alarm ${d.action === 'raise' ? 'raised' : 'cleared'} (${d.reason})`,
          payload: {
            kind: `alarm_${d.action}`,
            ruleId,
            sensorCheckId: checkId,
            at: iso(d.at),
            value: d.value,
          },
        });
        if (d.action === 'raise') {
          pending = d;
          continue;
        }
        if (pending) {
          inserts.push(alarmRow(inserts.length, device, pending, name, iso(d.at)));
          pending = undefined;
        } else {
          clears.push({
            company_id: device.companyId,
            device_id: device.id,
            rule_id: ruleId,
            sensor_check_id: checkId,
            cleared_at: iso(d.at),
            value: d.value,
            reason: d.reason,
          });
        }
      }
      if (pending) {
        const ruleId = pending.source.kind === 'rule' ? pending.source.ruleId : null;
        const name = ruleId
          ? `Rule "${outcome.rules.get(ruleId)?.name ?? ruleId}"`
          : `Sensor check ${pending.reason}`;
        inserts.push(alarmRow(inserts.length, device, pending, name, null));
      }
    }
  }
  // A rule belongs to one device, so rule ids alone key the raises of the batch.
  for (const row of inserts) {
    if (row.rule_id === null) continue;
    const list = raisesByRule.get(String(row.rule_id)) ?? [];
    list.push({ at: Date.parse(row.raised_at), ref: row.ref });
    raisesByRule.set(String(row.rule_id), list);
  }

  // Clear before insert: a new episode's raise must not meet the open alarm it replaces.
  let alarmIds: Awaited<ReturnType<typeof insertAlarms>>;
  if (options.pipelined)
    [, alarmIds] = await Promise.all([clearAlarms(tx, clears), insertAlarms(tx, inserts)]);
  else {
    await clearAlarms(tx, clears);
    alarmIds = await insertAlarms(tx, inserts);
  }
  // The alarm a firing names: the one its episode raised in this batch (inserted above), else the
  // rule's open alarm, read only for the firings that need it (a firing whose raise came in an earlier
  // batch, or whose insert met an open alarm already there). The common firing raised its own alarm.
  const raiseOf = (ruleId: string, at: number) =>
    (raisesByRule.get(ruleId) ?? []).filter((r) => r.at <= at).at(-1);
  const firingRules = outcomes.flatMap((o) =>
    o.firings
      .filter((f) => {
        const raise = raiseOf(f.ruleId, f.at);
        return !(raise && alarmIds.get(raise.ref));
      })
      .map((f) => ({
        ruleId: Number(f.ruleId),
        deviceId: o.device.id,
        companyId: o.device.companyId,
      })),
  );
  const open = await findOpenRuleAlarms(tx, firingRules);

  const jobs: NotifyActionPayload[] = [];
  for (const outcome of outcomes) {
    const { device } = outcome;
    const base = { device_id: device.id, company_id: device.companyId, raw: null, created_at: created };
    for (const firing of outcome.firings) {
      const rule = outcome.rules.get(firing.ruleId);
      const messageId = outcome.messageIdOf(firing.uplinkIndex, firing.ruleId);
      const raise = raiseOf(firing.ruleId, firing.at);
      const alarmId = (raise && alarmIds.get(raise.ref)) ?? open.get(Number(firing.ruleId)) ?? null;
      const firingJobs: NotifyActionPayload[] = firing.actions.map((action) => ({
        companyId: device.companyId,
        ruleId: Number(firing.ruleId),
        actionId: action.id,
        deviceId: device.id,
        alarmId,
        uplinkMessageId: messageId,
        field: firing.dataField?.slice(0, 200) ?? null,
        value: firing.value,
        firedAt: iso(firing.at),
      }));
      jobs.push(...firingJobs);
      logs.push({
        ...base,
        level: DEVICE_LOG_LEVEL.info,
        message: `Rule "${rule?.name ?? firing.ruleId}" fired: ${firing.reason}; ${firingJobs.length} action(s) queued`,
        payload: {
          kind: 'rule_fired',
          ruleId: Number(firing.ruleId),
          messageId,
          at: iso(firing.at),
          reason: firing.reason,
          jobs: firingJobs,
        },
      });
    }
    for (const l of outcome.late)
      logs.push({
        ...base,
        level: DEVICE_LOG_LEVEL.info,
        message: `Uplink measured at ${iso(l.measuredAt)} is older than the last one its rules evaluated (${iso(l.lastAt)}): evaluated as of ${iso(l.evaluatedAt)} (late delivery, or the device clock is behind)`,
        payload: {
          kind: 'uplink_late',
          messageId: outcome.messageIdOf(l.uplinkIndex, ''),
          measuredAt: iso(l.measuredAt),
          lastAt: iso(l.lastAt),
          evaluatedAt: iso(l.evaluatedAt),
        },
      });
    for (const s of outcome.suppressed) {
      const rule = outcome.rules.get(s.ruleId);
      logs.push({
        ...base,
        level: DEVICE_LOG_LEVEL.debug,
        message: `Rule "${rule?.name ?? s.ruleId}" did not notify (${s.reason}): ${describeSuppression(s.reason, rule)}`,
        payload: {
          kind: 'rule_suppressed',
          ruleId: Number(s.ruleId),
          messageId: outcome.messageIdOf(s.uplinkIndex, s.ruleId),
          at: iso(s.at),
          reason: s.reason,
        },
      });
    }
  }
  return { jobs, logs };
}

function alarmRow(
  ref: number,
  device: RulesWorkerDevice,
  d: AlarmDecision,
  name: string,
  clearedAt: string | null,
): AlarmRow {
  return {
    ref,
    company_id: device.companyId,
    device_id: device.id,
    rule_id: d.source.kind === 'rule' ? Number(d.source.ruleId) : null,
    sensor_check_id: d.source.kind === 'sensor_check' ? Number(d.source.sensorCheckId) : null,
    data_field: d.dataField,
    value: d.value,
    details: { ...d.details, reason: d.reason },
    message: `${name}: ${d.reason}`,
    raised_at: iso(d.at),
    cleared_at: clearedAt,
  };
}
