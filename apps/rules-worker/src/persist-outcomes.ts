import type { NotifyActionPayload } from '@iot/contracts/jobs';
import {
  type AlarmClearRow,
  type AlarmRow,
  announceAlarmsChanged,
  clearAlarms,
  type DeviceLogRow,
  findOpenRuleAlarms,
  insertAlarms,
  insertDeviceLogRows,
  type RulesWorkerAction,
  type RulesWorkerDevice,
  type RulesWorkerRule,
  type RulesWorkerSensorCheck,
  type Transaction,
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
  tx: Transaction,
  outcomes: readonly DeviceOutcome[],
  now: number,
): Promise<NotifyActionPayload[]> {
  const { jobs, logs } = await writeAlarms(tx, outcomes, now);
  await insertDeviceLogRows(tx, logs);
  return jobs;
}

/**
 * persistOutcomes up to its last statement: writes the alarms and returns the jobs with the device log
 * rows still to insert, so that the caller can send that insert together with its next statements
 * (evaluateUplinkBatch). The alarms' clear and insert go through `tx.pipeline` (sent together on PGlite).
 */
export async function writeAlarms(
  tx: Transaction,
  outcomes: readonly DeviceOutcome[],
  now: number,
): Promise<{ jobs: NotifyActionPayload[]; logs: DeviceLogRow[] }> {
  const created = iso(now);
  const { logs, inserts, clears } = alarmChanges(outcomes, created);
  // Clear before insert: a new episode's raise must not meet the open alarm it replaces.
  const [, alarmIds] = await tx.pipeline([
    () => clearAlarms(tx, clears),
    () => insertAlarms(tx, inserts),
    // The API's alarm poll answers from memory until told (ALARMS_CHANGED_CHANNEL).
    () => (clears.length + inserts.length > 0 ? announceAlarmsChanged(tx) : Promise.resolve()),
  ]);
  const alarmOf = await firingAlarms(tx, outcomes, inserts, alarmIds);
  const jobs: NotifyActionPayload[] = [];
  for (const outcome of outcomes) {
    const base = logBase(outcome.device, created);
    for (const firing of outcome.firings) {
      const { jobs: firingJobs, log } = firingEntry(outcome, firing, alarmOf(firing), base);
      jobs.push(...firingJobs);
      logs.push(log);
    }
    logs.push(...lateEntries(outcome, base), ...suppressionEntries(outcome, base));
  }
  return { jobs, logs };
}

type LogBase = Pick<DeviceLogRow, 'device_id' | 'company_id' | 'raw' | 'created_at'>;

const logBase = (device: RulesWorkerDevice, created: string): LogBase => ({
  device_id: device.id,
  company_id: device.companyId,
  raw: null,
  created_at: created,
});

/**
 * The alarm rows to insert and clear, with a log entry per raise and clear. A raise and clear of one
 * episode within one batch becomes a cleared history row.
 */
function alarmChanges(
  outcomes: readonly DeviceOutcome[],
  created: string,
): { logs: DeviceLogRow[]; inserts: AlarmRow[]; clears: AlarmClearRow[] } {
  const changes = { logs: [] as DeviceLogRow[], inserts: [] as AlarmRow[], clears: [] as AlarmClearRow[] };
  for (const outcome of outcomes) {
    const bySource = new Map<string, AlarmDecision[]>();
    for (const decision of outcome.alarms) {
      const key =
        decision.source.kind === 'rule' ? `r${decision.source.ruleId}` : `c${decision.source.sensorCheckId}`;
      bySource.set(key, [...(bySource.get(key) ?? []), decision]);
    }
    for (const decisions of bySource.values())
      sourceChanges(outcome, decisions, logBase(outcome.device, created), changes);
  }
  return changes;
}

/** alarmChanges for the decisions of one rule or check, in their order. */
function sourceChanges(
  outcome: DeviceOutcome,
  decisions: readonly AlarmDecision[],
  base: LogBase,
  { logs, inserts, clears }: { logs: DeviceLogRow[]; inserts: AlarmRow[]; clears: AlarmClearRow[] },
): void {
  const { device } = outcome;
  let pending: AlarmDecision | undefined;
  for (const d of decisions) {
    const ruleId = d.source.kind === 'rule' ? Number(d.source.ruleId) : null;
    const checkId = d.source.kind === 'sensor_check' ? Number(d.source.sensorCheckId) : null;
    const name =
      ruleId !== null
        ? `Rule "${outcome.rules.get(String(ruleId))?.name ?? ruleId}"`
        : `Sensor check ${outcome.checks.get(String(checkId))?.kind ?? ''} #${checkId}`;
    const check = checkId !== null ? outcome.checks.get(String(checkId)) : undefined;
    logs.push({
      ...base,
      level: d.action === 'raise' ? DEVICE_LOG_LEVEL.warning : DEVICE_LOG_LEVEL.info,
      message: `${name}: alarm ${d.action === 'raise' ? 'raised' : 'cleared'} (${d.reason})`,
      kind: `alarm_${d.action}`,
      params:
        ruleId !== null
          ? {
              rule: outcome.rules.get(String(ruleId))?.name ?? String(ruleId),
              reason: d.reason,
              field: d.dataField,
            }
          : { check: check?.kind ?? null, check_id: checkId, reason: d.reason, field: d.dataField },
      payload: { kind: `alarm_${d.action}`, ruleId, sensorCheckId: checkId, at: iso(d.at), value: d.value },
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

/**
 * The alarm each firing names: the one its episode raised in this batch (inserted above), else the
 * rule's open alarm, read only for the firings that need it (a firing whose raise came in an earlier
 * batch, or whose insert met an open alarm already there). The common firing raised its own alarm.
 */
async function firingAlarms(
  tx: Transaction,
  outcomes: readonly DeviceOutcome[],
  inserts: readonly AlarmRow[],
  alarmIds: ReadonlyMap<number, number>,
): Promise<(firing: Firing<RulesWorkerAction>) => number | null> {
  // Per rule: the raises of this batch (time, ref), so a firing names the alarm of its episode. A rule
  // belongs to one device, so rule ids alone key the raises of the batch.
  const raisesByRule = new Map<string, { at: number; ref: number }[]>();
  for (const row of inserts) {
    if (row.rule_id === null) continue;
    const list = raisesByRule.get(String(row.rule_id)) ?? [];
    list.push({ at: Date.parse(row.raised_at), ref: row.ref });
    raisesByRule.set(String(row.rule_id), list);
  }
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
  return (firing) => {
    const raise = raiseOf(firing.ruleId, firing.at);
    return (raise && alarmIds.get(raise.ref)) ?? open.get(Number(firing.ruleId)) ?? null;
  };
}

/** A firing's notify jobs, one per action, and its log entry, which carries them (the outbox). */
function firingEntry(
  outcome: DeviceOutcome,
  firing: Firing<RulesWorkerAction>,
  alarmId: number | null,
  base: LogBase,
): { jobs: NotifyActionPayload[]; log: DeviceLogRow } {
  const { device } = outcome;
  const rule = outcome.rules.get(firing.ruleId);
  const messageId = outcome.messageIdOf(firing.uplinkIndex, firing.ruleId);
  const jobs: NotifyActionPayload[] = firing.actions.map((action) => ({
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
  const log: DeviceLogRow = {
    ...base,
    level: DEVICE_LOG_LEVEL.info,
    message: `Rule "${rule?.name ?? firing.ruleId}" fired: ${firing.reason}; ${jobs.length} action(s) queued`,
    kind: 'rule_fired',
    params: {
      rule: rule?.name ?? firing.ruleId,
      reason: firing.reason,
      field: firing.dataField,
      actions: jobs.length,
    },
    payload: {
      kind: 'rule_fired',
      ruleId: Number(firing.ruleId),
      messageId,
      at: iso(firing.at),
      reason: firing.reason,
      jobs,
    },
  };
  return { jobs, log };
}

function lateEntries(outcome: DeviceOutcome, base: LogBase): DeviceLogRow[] {
  return outcome.late.map((l) => ({
    ...base,
    level: DEVICE_LOG_LEVEL.info,
    message: `Uplink measured at ${iso(l.measuredAt)} is older than the last one its rules evaluated (${iso(l.lastAt)}): evaluated as of ${iso(l.evaluatedAt)} (late delivery, or the device clock is behind)`,
    kind: 'uplink_late',
    params: { measured_at: iso(l.measuredAt), last_at: iso(l.lastAt), evaluated_at: iso(l.evaluatedAt) },
    payload: {
      kind: 'uplink_late',
      messageId: outcome.messageIdOf(l.uplinkIndex, ''),
      measuredAt: iso(l.measuredAt),
      lastAt: iso(l.lastAt),
      evaluatedAt: iso(l.evaluatedAt),
    },
  }));
}

function suppressionEntries(outcome: DeviceOutcome, base: LogBase): DeviceLogRow[] {
  return outcome.suppressed.map((s) => {
    const rule = outcome.rules.get(s.ruleId);
    return {
      ...base,
      level: DEVICE_LOG_LEVEL.debug,
      message: `Rule "${rule?.name ?? s.ruleId}" did not notify (${s.reason}): ${describeSuppression(s.reason, rule)}`,
      kind: 'rule_suppressed',
      params: { rule: rule?.name ?? s.ruleId, reason: s.reason },
      payload: {
        kind: 'rule_suppressed',
        ruleId: Number(s.ruleId),
        messageId: outcome.messageIdOf(s.uplinkIndex, s.ruleId),
        at: iso(s.at),
        reason: s.reason,
      },
    };
  });
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
