import { blockedBy, recentFirings, ruleAlarm } from './evaluate-rule';
import { DEFAULT_TIME_ZONE, localTime } from './local-time';
import { evaluateSilence } from './sensor-checks';
import { toEpochMs } from './time';
import type { AlarmDecision, DeviceState, Firing, Rule, RuleState, SensorCheck, Suppression } from './types';

export interface EvaluateTimersOptions<TAction> {
  rules: readonly Rule<TAction>[];
  sensorChecks: readonly SensorCheck[];
  states?: Partial<DeviceState>;
  /** The device's last_online, for checks and rules that have not seen an uplink themselves. */
  lastSeenAt?: number | string | null;
  timeZone?: string;
  now: number | string;
}

export interface EvaluateTimersResult<TAction> {
  firings: Firing<TAction>[];
  suppressed: Suppression[];
  alarms: AlarmDecision[];
  newStates: DeviceState;
}

/**
 * The timer side of one device: no_data sensor checks and no_data rules, judged at `now`. A no_data
 * rule's silence is its time window (timeWindowSeconds): longer silence raises its alarm once and
 * fires once, at the first tick the schedule and max actions allow (suppressed ticks are reported);
 * an uplink (evaluateUplinks) clears the alarm and re-arms the rule.
 */
export function evaluateSensorChecksOnTimer<TAction = unknown>(
  options: EvaluateTimersOptions<TAction>,
): EvaluateTimersResult<TAction> {
  const now = toEpochMs(options.now);
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const lastSeen = toEpochMs(options.lastSeenAt);
  const fallback = Number.isFinite(lastSeen) ? lastSeen : undefined;
  const checkStates = { ...options.states?.sensorChecks };
  const ruleStates: Record<string, RuleState> = { ...options.states?.rules };
  const alarms: AlarmDecision[] = [];
  const firings: Firing<TAction>[] = [];
  const suppressed: Suppression[] = [];

  for (const check of options.sensorChecks) {
    if (check.isActive === false) continue;
    const step = evaluateSilence(check, checkStates[check.id] ?? {}, now, fallback);
    checkStates[check.id] = step.state;
    if (step.alarm) alarms.push(step.alarm);
  }

  for (const rule of options.rules) {
    if (rule.isActive === false || rule.trigger !== 'no_data' || !rule.timeWindowSeconds) continue;
    const prior = ruleStates[rule.id] ?? {};
    const seen = prior.lastAt ?? fallback;
    if (seen === undefined || now - seen <= rule.timeWindowSeconds * 1000 || prior.fired) continue;
    const state: RuleState = { ...prior, lastAt: seen };
    const silentSeconds = Math.floor((now - seen) / 1000);
    const reason = `no data for ${silentSeconds} s (limit ${rule.timeWindowSeconds} s)`;
    if (!state.alarmOpen) {
      state.alarmOpen = true;
      alarms.push(
        ruleAlarm(rule, 'raise', null, now, null, reason, {
          lastSeenAt: seen,
          silentSeconds,
          limitSeconds: rule.timeWindowSeconds,
        }),
      );
    }
    const blocked = blockedBy(rule, state, now, () => localTime(now, timeZone));
    if (blocked) {
      suppressed.push({ ruleId: rule.id, uplinkIndex: null, at: now, reason: blocked });
      ruleStates[rule.id] = state;
      continue;
    }
    const counted = rule.maxActions ? { firings: [...recentFirings(rule, state, now), now] } : {};
    ruleStates[rule.id] = { ...state, fired: true, ...counted };
    firings.push({
      ruleId: rule.id,
      uplinkIndex: null,
      at: now,
      dataField: null,
      value: null,
      reason,
      actions: rule.actions ?? [],
    });
  }

  return {
    firings,
    suppressed,
    alarms,
    newStates: {
      rules: ruleStates,
      virtualFields: { ...options.states?.virtualFields },
      sensorChecks: checkStates,
    },
  };
}
