import { type Condition, describeCondition, holdsLevel, isCrossing } from './evaluate-condition';
import type { LocalTime } from './local-time';
import { readValue } from './read-value';
import { isInSchedule } from './schedule';
import type { AlarmDecision, Firing, Rule, RuleState, Suppression, UplinkData } from './types';

/** What one rule decided for one uplink. At most one of firing / suppression; alarm independent. */
export interface RuleStep<TAction> {
  state: RuleState;
  firing?: Firing<TAction>;
  suppression?: Suppression;
  alarm?: AlarmDecision;
}

export interface RuleInput {
  index: number;
  at: number;
  data: UplinkData;
  /** Virtual field values of this uplink (numeric, before mapping). */
  virtual: Readonly<Record<string, number>>;
  /** Lazily computed once per uplink and shared by all rules. */
  time: () => LocalTime;
}

/** An alarm decision of a rule; the data field is the rule's (null for click and no_data rules). */
export function ruleAlarm(
  rule: Rule<unknown>,
  action: AlarmDecision['action'],
  uplinkIndex: number | null,
  at: number,
  value: number | null,
  reason: string,
  details: Record<string, unknown>,
): AlarmDecision {
  const dataField = rule.trigger === 'data' ? (rule.dataField ?? null) : null;
  return {
    action,
    source: { kind: 'rule', ruleId: rule.id },
    uplinkIndex,
    at,
    dataField,
    value,
    reason,
    details,
  };
}

/** A copy with a fixed set of keys: cheaper for V8 than spreads and rest destructuring per uplink. */
function copyState(prior: RuleState, at: number): RuleState {
  return {
    lastAt: at,
    lastValue: prior.lastValue,
    holdingSince: prior.holdingSince,
    fired: prior.fired,
    alarmOpen: prior.alarmOpen,
    firings: prior.firings,
    clicks: prior.clicks,
  };
}

/** Sliding window: firings in (at - period, at]; state keeps at most maxActions times. */
export function recentFirings(rule: Rule, state: RuleState, at: number): number[] {
  if (!rule.maxActions || !rule.maxActionsPeriodSeconds) return [];
  const since = at - rule.maxActionsPeriodSeconds * 1000;
  return (state.firings ?? []).filter((time) => time > since);
}

/** Why a confirmed firing may not go out now: outside the schedule, or max actions used up. */
export function blockedBy(
  rule: Rule,
  state: RuleState,
  at: number,
  time: () => LocalTime,
): 'schedule' | 'max_actions' | null {
  if (!isInSchedule(rule, time())) return 'schedule';
  if (rule.maxActions && recentFirings(rule, state, at).length >= rule.maxActions) return 'max_actions';
  return null;
}

function fire<TAction>(
  rule: Rule<TAction>,
  state: RuleState,
  input: RuleInput,
  value: number | null,
  reason: string,
): RuleStep<TAction> {
  if (rule.maxActions) state.firings = [...recentFirings(rule, state, input.at), input.at];
  return {
    state,
    firing: {
      ruleId: rule.id,
      uplinkIndex: input.index,
      at: input.at,
      dataField: rule.dataField ?? null,
      value,
      reason,
      actions: rule.actions ?? [],
    },
  };
}

function suppressed<TAction>(
  rule: Rule<TAction>,
  state: RuleState,
  input: RuleInput,
  reason: Suppression['reason'],
): RuleStep<TAction> {
  return { state, suppression: { ruleId: rule.id, uplinkIndex: input.index, at: input.at, reason } };
}

/** The thresholds an alarm decision of a data rule reports. */
function thresholdsOf(rule: Rule<unknown>): Record<string, unknown> {
  return {
    operator: rule.operator,
    threshold: rule.value ?? null,
    rangeMin: rule.rangeMin ?? null,
    rangeMax: rule.rangeMax ?? null,
  };
}

/**
 * A data rule on one uplink. Semantics (README "Rules"):
 * - An uplink without a numeric value for the field leaves the rule untouched (it neither holds nor
 *   breaks a window). The caller hands in the uplink at its `evaluationTime` for this rule, so time
 *   never runs backwards here.
 * - Episode: lte/gte/eq/in/out start an episode when the condition starts to hold; rie/fae when the
 *   value crosses the threshold (first value ever: no crossing). The episode lasts while the level holds.
 * - The episode must last `timeWindowSeconds` (between uplink times) before it is confirmed. Confirmed:
 *   the alarm is raised (once) and the rule fires once, at the first uplink the schedule and max actions
 *   allow. Later uplinks of the episode are `not_edge`. When the level stops holding, the episode ends,
 *   the alarm clears and the rule re-arms.
 */
export function evaluateDataRule<TAction>(
  rule: Rule<TAction>,
  prior: RuleState,
  input: RuleInput,
): RuleStep<TAction> | null {
  const field = rule.dataField;
  const operator = rule.operator;
  if (!field || !operator) return null;
  const value = input.virtual[field] ?? readValue(input.data, field);
  if (value === null) return null;
  // The rule is its own condition (operator checked above), and the thresholds an alarm reports are
  // built only for an alarm: no two objects per rule and uplink (ten rules per device on every uplink).
  const condition = rule as Rule<TAction> & Condition;
  const previous = prior.lastValue;
  const state = copyState(prior, input.at);
  state.lastValue = value;
  const level = holdsLevel(condition, value);
  const edgeOperator = operator === 'rie' || operator === 'fae';

  if (
    !level ||
    (state.holdingSince === undefined && edgeOperator && !isCrossing(condition, previous, value))
  ) {
    // Not (or no longer) in an episode: end it, clear its alarm, re-arm.
    const ended = state.holdingSince !== undefined && state.alarmOpen === true;
    state.holdingSince = undefined;
    state.fired = undefined;
    state.alarmOpen = undefined;
    const step: RuleStep<TAction> = { state };
    if (ended)
      step.alarm = ruleAlarm(
        rule,
        'clear',
        input.index,
        input.at,
        value,
        'condition_ended',
        thresholdsOf(rule),
      );
    // The level holds but there was no crossing: say why rie / fae did not fire.
    if (level) return suppressed(rule, state, input, previous === undefined ? 'first_value' : 'not_edge');
    return step;
  }

  if (state.holdingSince === undefined) state.holdingSince = input.at;
  if (state.fired) return suppressed(rule, state, input, 'not_edge');
  if (input.at - state.holdingSince < (rule.timeWindowSeconds ?? 0) * 1000)
    return suppressed(rule, state, input, 'time_window');

  const reason = describeCondition(field, condition, value);
  let alarm: AlarmDecision | undefined;
  if (!state.alarmOpen) {
    state.alarmOpen = true;
    alarm = ruleAlarm(rule, 'raise', input.index, input.at, value, reason, {
      ...thresholdsOf(rule),
      holdingSince: state.holdingSince,
      previous: previous ?? null,
    });
  }
  const blocked = blockedBy(rule, state, input.at, input.time);
  if (!blocked) state.fired = true;
  const step = blocked ? suppressed(rule, state, input, blocked) : fire(rule, state, input, value, reason);
  if (alarm) step.alarm = alarm;
  return step;
}

/**
 * A click rule on one uplink with a `click_type`. The rule's click type is a bit mask (single 1,
 * double 2, long 4). Order of checks: click type, schedule, max actions (a blocked click is not counted),
 * then max clicks: the rule fires when the max_clicks-th matching click arrives, counted since the last
 * firing and, when the rule has a max-actions period, only within that period (sliding); the counter
 * starts again after each firing. Clicks below the count are suppressed as `max_clicks`.
 */
export function evaluateClickRule<TAction>(
  rule: Rule<TAction>,
  prior: RuleState,
  input: RuleInput,
): RuleStep<TAction> | null {
  const clickType = readValue(input.data, 'click_type');
  if (clickType === null) return null;
  const state = copyState(prior, input.at);
  if (((rule.clickType ?? 0) & clickType) === 0) return suppressed(rule, state, input, 'click_type');
  const blocked = blockedBy(rule, state, input.at, input.time);
  if (blocked) return suppressed(rule, state, input, blocked);
  const needed = rule.maxClicks ?? 1;
  if (needed > 1) {
    const since = rule.maxActionsPeriodSeconds
      ? input.at - rule.maxActionsPeriodSeconds * 1000
      : Number.NEGATIVE_INFINITY;
    const clicks = [...(state.clicks ?? []).filter((time) => time > since), input.at];
    state.clicks = clicks;
    if (clicks.length < needed) return suppressed(rule, state, input, 'max_clicks');
  }
  state.clicks = undefined;
  return fire(
    rule,
    state,
    input,
    clickType,
    `click_type ${clickType} matches ${rule.clickType}${needed > 1 ? ` (${needed} clicks)` : ''}`,
  );
}
