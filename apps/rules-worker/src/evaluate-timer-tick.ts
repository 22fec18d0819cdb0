import {
  type Db,
  lockTimerWork,
  type RulesWorkerRule,
  type RulesWorkerSensorCheck,
  saveRuleStates,
  saveSensorCheckStates,
} from '@iot/db';
import { evaluateSensorChecksOnTimer, type RuleState } from '@iot/rules-engine';
import { toEngineRule, toEngineSensorCheck } from './engine-inputs.js';
import { engineState, readCursor, withCursor } from './log-cursor.js';
import { refreshParking } from './parking.js';
import { type DeviceOutcome, persistOutcomes } from './persist-outcomes.js';

/**
 * One timer tick over every company's devices: no_data sensor checks and no_data rules, judged at
 * `now` with the same persistence as an uplink batch (states, alarms, device log entries, notify jobs
 * returned for enqueueing after the commit). Rows an uplink batch or another worker's tick holds are
 * skipped (SKIP LOCKED) and judged at the next tick, so two workers never judge one row at once.
 *
 * A no-data firing has no uplink; its message id is `no_data:<start of the silence>` (the rule's last
 * seen time), stable for the whole silence, so a tick repeated after a crash notifies once.
 */
export async function evaluateTimerTick(options: {
  db: Db;
  now: number;
  limit?: number;
}): Promise<{ jobs: unknown[]; devices: number }> {
  const { db, now } = options;
  return db.transaction(async (tx) => {
    const work = await lockTimerWork(tx, options.limit ?? 10_000);
    const rulesOf = new Map<number, RulesWorkerRule[]>();
    const checksOf = new Map<number, RulesWorkerSensorCheck[]>();
    for (const r of work.rules) rulesOf.set(r.deviceId, [...(rulesOf.get(r.deviceId) ?? []), r]);
    for (const c of work.sensorChecks) checksOf.set(c.deviceId, [...(checksOf.get(c.deviceId) ?? []), c]);

    const outcomes: DeviceOutcome[] = [];
    const ruleStates: Parameters<typeof saveRuleStates>[1][number][] = [];
    const checkStates: Parameters<typeof saveSensorCheckStates>[1][number][] = [];
    for (const device of work.devices) {
      const rules = rulesOf.get(device.id) ?? [];
      const checks = checksOf.get(device.id) ?? [];
      const result = evaluateSensorChecksOnTimer({
        rules: rules.map(toEngineRule),
        sensorChecks: checks.map(toEngineSensorCheck),
        states: {
          rules: Object.fromEntries(rules.map((r) => [String(r.id), engineState(r.state)])),
          sensorChecks: Object.fromEntries(checks.map((c) => [String(c.id), engineState(c.state)])),
        },
        lastSeenAt: device.lastOnlineAt?.getTime() ?? null,
        timeZone: device.timeZone,
        now,
      });
      const fired = new Set(result.firings.map((f) => f.ruleId));
      for (const r of rules)
        ruleStates.push({
          id: r.id,
          company_id: r.companyId,
          state: withCursor(
            result.newStates.rules[String(r.id)] ?? engineState(r.state),
            readCursor(r.state),
          ),
          last_fired_at: fired.has(String(r.id)) ? new Date(now).toISOString() : null,
        });
      for (const c of checks)
        checkStates.push({
          id: c.id,
          company_id: c.companyId,
          state: withCursor(
            result.newStates.sensorChecks[String(c.id)] ?? engineState(c.state),
            readCursor(c.state),
          ),
        });
      const silenceStart = (ruleId: string) => {
        const state = result.newStates.rules[ruleId] as RuleState | undefined;
        return `no_data:${new Date(state?.lastAt ?? now).toISOString()}`;
      };
      outcomes.push({
        device,
        rules: new Map(rules.map((r) => [String(r.id), r])),
        checks: new Map(checks.map((c) => [String(c.id), c])),
        firings: result.firings,
        suppressed: result.suppressed,
        alarms: result.alarms,
        late: [],
        messageIdOf: (_index, ruleId) => silenceStart(ruleId),
      });
    }
    await saveRuleStates(tx, ruleStates);
    await saveSensorCheckStates(tx, checkStates);
    const jobs = await persistOutcomes(tx, outcomes, now);
    const parkingJobs = await refreshParking(tx, now);
    return { jobs: [...jobs, ...parkingJobs], devices: work.devices.length };
  });
}
