import {
  evaluateClickRule,
  evaluateDataRule,
  type RuleInput,
  type RuleStep,
  ruleAlarm,
} from './evaluate-rule';
import { DEFAULT_TIME_ZONE, type LocalTime, localTime } from './local-time';
import { evaluateSensorCheck } from './sensor-checks';
import { evaluationTime, laterOf, toEpochMs } from './time';
import type {
  AlarmDecision,
  DerivedUplink,
  Device,
  DeviceState,
  Firing,
  Rule,
  RuleState,
  SensorCheck,
  Suppression,
  Uplink,
  VirtualField,
} from './types';
import { computePreparedFields, type PreparedFields, prepareVirtualFields } from './virtual-fields';

export interface EvaluateUplinksOptions<TAction> {
  device: Device;
  rules: readonly Rule<TAction>[];
  virtualFields?: readonly VirtualField[];
  sensorChecks?: readonly SensorCheck[];
  /** The device's state as persisted after the previous call; missing parts start empty. */
  states?: Partial<DeviceState>;
  /** In arrival order. */
  uplinks: readonly Uplink[];
  /** The company's IANA zone; Europe/Berlin by default. */
  timeZone?: string;
  /** The caller's clock (epoch ms or ISO): a measuredAt later than this is a device clock running ahead. */
  now: number | string;
}

export interface EvaluateUplinksResult<TAction> {
  /** Per uplink: data plus stored virtual fields, the numeric virtual values, and fields that got no value. */
  derived: DerivedUplink[];
  firings: Firing<TAction>[];
  suppressed: Suppression[];
  /** Raise / clear decisions in order; at most one open alarm per rule or check. */
  alarms: AlarmDecision[];
  newStates: DeviceState;
  /** Virtual fields that failed validation and were left out (with their API error). */
  problems: PreparedFields['problems'];
}

// Compiling formulas (mathjs parse) costs far more than evaluating them; the worker calls once per
// batch with the same definitions, so the prepared plan is memoised by its definition. Bounded.
const preparedMemo = new Map<string, PreparedFields>();
const PREPARED_MEMO_MAX = 1000;

function prepared(device: Device, virtualFields: readonly VirtualField[]): PreparedFields {
  if (virtualFields.length === 0) return { fields: [], problems: [] };
  const key = JSON.stringify([device.dataFields ?? [], virtualFields]);
  let plan = preparedMemo.get(key);
  if (!plan) {
    plan = prepareVirtualFields(device, virtualFields);
    if (preparedMemo.size >= PREPARED_MEMO_MAX) preparedMemo.clear();
    preparedMemo.set(key, plan);
  }
  return plan;
}

/**
 * The uplink's time on the engine's clock: measuredAt when given and not in the future of `now`
 * (a device clock running ahead would otherwise push windows and periods forward), else receivedAt.
 */
export function uplinkTime(uplink: Uplink, now: number): number {
  const measured = toEpochMs(uplink.measuredAt);
  if (Number.isFinite(measured) && measured <= now) return measured;
  return toEpochMs(uplink.receivedAt);
}

/**
 * Evaluates one device's batch of uplinks: virtual fields, sensor checks, then rules, uplink by
 * uplink in order, threading the state through. Pure: the same options give the same result, and the
 * returned states (JSON-serializable) are the next call's `states`.
 */
export function evaluateUplinks<TAction = unknown>(
  options: EvaluateUplinksOptions<TAction>,
): EvaluateUplinksResult<TAction> {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const now = toEpochMs(options.now);
  const plan = prepared(options.device, options.virtualFields ?? []);
  const ruleStates: Record<string, RuleState> = { ...options.states?.rules };
  const fieldStates = { ...options.states?.virtualFields };
  const checkStates = { ...options.states?.sensorChecks };
  const rules = options.rules.filter((rule) => rule.isActive !== false);
  const checks = (options.sensorChecks ?? []).filter((check) => check.isActive !== false);
  const derived: DerivedUplink[] = [];
  const firings: Firing<TAction>[] = [];
  const suppressed: Suppression[] = [];
  const alarms: AlarmDecision[] = [];

  options.uplinks.forEach((uplink, index) => {
    const at = uplinkTime(uplink, now);
    if (!Number.isFinite(at)) {
      derived.push({ data: { ...uplink.data }, virtual: {}, errors: [] });
      return;
    }
    // The receipt is parsed only when asked: for an uplink older than a rule's last one, or by no_data.
    let received: number | undefined;
    const receivedAt = (): number => {
      received ??= toEpochMs(uplink.receivedAt);
      return received;
    };
    let time: LocalTime | undefined;
    const timeOf = (): LocalTime => {
      time ??= localTime(at, timeZone);
      return time;
    };
    const localTimeOf = (ms: number): LocalTime => (ms === at ? timeOf() : localTime(ms, timeZone));
    let virtual: Record<string, number> = {};
    let data: Record<string, unknown> = uplink.data as Record<string, unknown>;
    const errors: DerivedUplink['errors'] = [];
    let late: DerivedUplink['late'];
    if (plan.fields.length > 0) {
      const clock = { at, receivedAt, localTime: localTimeOf };
      const computed = computePreparedFields(plan.fields, uplink.data, clock, fieldStates, false);
      Object.assign(fieldStates, computed.states);
      virtual = computed.values;
      data = { ...uplink.data, ...computed.data };
      errors.push(...computed.errors);
      late = computed.late;
    }
    const entry: DerivedUplink = { data, virtual, errors };
    derived.push(entry);

    // Silence ends when the platform hears from the device: a no_data check or rule takes the receipt,
    // so a device whose clock lags behind is not taken for silent by the timer.
    const heardAt = (): number => (Number.isFinite(receivedAt()) ? Math.max(receivedAt(), at) : at);
    for (const check of checks) {
      const checkAt = check.kind === 'no_data' ? heardAt() : at;
      const step = evaluateSensorCheck(
        check,
        checkStates[check.id] ?? {},
        index,
        checkAt,
        uplink.data,
        virtual,
      );
      checkStates[check.id] = step.state;
      if (step.alarm) alarms.push(step.alarm);
    }

    const input: RuleInput = { index, at, data: uplink.data, virtual, time: timeOf };
    for (const rule of rules) {
      const prior = ruleStates[rule.id] ?? {};
      let step: RuleStep<TAction> | null = null;
      if (rule.trigger === 'no_data') step = heardFrom(rule, prior, index, heardAt());
      else {
        // An uplink older than the rule's last one: evaluated at a later time (`evaluationTime`).
        const ruleAt = evaluationTime(at, receivedAt, prior.lastAt);
        const ruleInput = ruleAt === at ? input : { ...input, at: ruleAt, time: () => localTimeOf(ruleAt) };
        if (rule.trigger === 'data') step = evaluateDataRule(rule, prior, ruleInput);
        else step = evaluateClickRule(rule, prior, ruleInput);
        if (step && ruleAt !== at) late = laterOf(late, prior.lastAt!, ruleAt);
      }
      if (!step) continue;
      ruleStates[rule.id] = step.state;
      if (step.alarm) alarms.push(step.alarm);
      if (step.firing) firings.push(step.firing);
      if (step.suppression) suppressed.push(step.suppression);
    }
    if (late) entry.late = late;
  });

  return {
    derived,
    firings,
    suppressed,
    alarms,
    newStates: { rules: ruleStates, virtualFields: fieldStates, sensorChecks: checkStates },
    problems: plan.problems,
  };
}

/** A no_data rule hears an uplink: the silence ends, its alarm clears and the rule re-arms. */
function heardFrom<TAction>(
  rule: Rule<TAction>,
  prior: RuleState,
  index: number,
  at: number,
): RuleStep<TAction> {
  const { alarmOpen, fired: _fired, ...rest } = prior;
  const state: RuleState = { ...rest, lastAt: Math.max(at, prior.lastAt ?? at) };
  if (!alarmOpen) return { state };
  return {
    state,
    alarm: ruleAlarm(rule, 'clear', index, at, null, 'data_received', { silentSince: prior.lastAt ?? null }),
  };
}
