import type { AggregationFunction, ConditionOperator } from '@iot/domain';

/**
 * Inputs mirror the rows of migration 0003 (rules, rule_actions, virtual_data_fields, sensor_checks)
 * in camelCase; ids are strings because bigint ids do not fit a JS number safely.
 */

/** A device's data as decoded: flat keys (`temperature`, `virtual.<uuid>.<name>`) or nested objects. */
export type UplinkData = Readonly<Record<string, unknown>>;

export interface Uplink {
  /** When the platform received the uplink (epoch ms or ISO text). */
  receivedAt: number | string;
  /** When the device measured it, if the payload says so; the engine's clock for this uplink. */
  measuredAt?: number | string | null;
  data: UplinkData;
}

export type RuleTrigger = 'data' | 'click' | 'no_data';

export interface Rule<TAction = unknown> {
  id: string;
  isActive?: boolean;
  trigger: RuleTrigger;
  dataField?: string | null;
  operator?: ConditionOperator | null;
  /** Threshold for lte, gte, eq, rie, fae. */
  value?: number | null;
  /** Inclusive range for in / out. */
  rangeMin?: number | null;
  rangeMax?: number | null;
  /** The condition has to hold this long (between uplink times) before the rule fires; 0 = at once. */
  timeWindowSeconds?: number | null;
  /** Local times HH:MM[:SS] in the company's zone; both null = all day. */
  scheduleStart?: string | null;
  scheduleEnd?: string | null;
  /** ISO weekdays 1 (Monday) .. 7 (Sunday); empty or missing = every day. */
  scheduleWeekdays?: readonly number[] | null;
  maxActions?: number | null;
  maxActionsPeriodSeconds?: number | null;
  /** Bit mask of click types: single 1, double 2, long 4. */
  clickType?: number | null;
  maxClicks?: number | null;
  /** Passed through untouched into each firing, for the worker to enqueue. */
  actions?: readonly TAction[];
}

export interface VirtualField {
  id: string;
  uuid: string;
  name: string;
  unit?: string | null;
  formula?: string | null;
  function?: AggregationFunction | string | null;
  /** Value mapping applied to the result: exact keys ("0", "1", "true") and ranges ("10..20", "..0", "30.."). */
  mapping?: Readonly<Record<string, string | number>> | null;
  /** true: stored with the data point; false: computed only when read (`computeVirtualFields`). */
  store?: boolean | null;
}

export type SensorCheckKind = 'no_data' | 'implausible_value' | 'battery_low';

export interface SensorCheck {
  id: string;
  isActive?: boolean;
  kind: SensorCheckKind;
  dataField?: string | null;
  /** no_data: silence longer than this raises the alarm. */
  maxSilenceSeconds?: number | null;
  /** implausible_value: own bounds; missing ones come from the domain's `fieldBounds` (spec section 5). battery_low: the level. */
  minValue?: number | null;
  maxValue?: number | null;
}

/**
 * Per-rule state (rules.state jsonb). Small and JSON-serializable; a key may hold `undefined` after an
 * episode ends (JSON drops it), which keeps the object's shape fixed on the hot path.
 */
export interface RuleState {
  /** Time (epoch ms) the rule last evaluated an uplink at; an older uplink is evaluated at a later time (`evaluationTime`). */
  lastAt?: number;
  /** Last numeric value of the data field (edges of rie / fae). */
  lastValue?: number;
  /** rie/fae: a crossing happened and the level still holds. data: start of the current episode. */
  holdingSince?: number;
  /** The current episode has fired (or, for alarms, been confirmed): no second firing until it ends. */
  fired?: boolean;
  /** An alarm for this rule is open. */
  alarmOpen?: boolean;
  /** Times of the firings inside the max-actions period (sliding window, at most maxActions entries). */
  firings?: number[];
  /** Times of counted clicks since the last firing (at most maxClicks entries). */
  clicks?: number[];
}

/** Per-virtual-field state (virtual_data_fields.state jsonb). */
export interface VirtualFieldState {
  lastAt?: number;
  /** diff_to_last: previous input value. */
  last?: number;
  /** sum_up: running total; count_up_*: count in the current bucket. */
  total?: number;
  /** count_up_*: start (epoch ms) of the current local hour or day. */
  bucket?: number;
  /** moving_average_*: [bucket start ms, sum, count] per sub-bucket, oldest first, bounded. */
  buckets?: [number, number, number][];
}

export interface SensorCheckState {
  alarmOpen?: boolean;
  /** Last time the checked device (or field) was heard of, epoch ms. */
  lastSeenAt?: number;
}

export interface DeviceState {
  rules: Record<string, RuleState>;
  virtualFields: Record<string, VirtualFieldState>;
  sensorChecks: Record<string, SensorCheckState>;
}

export interface Device {
  id: string;
  /** Known data fields of the device (device_details.data_fields); formulas may only use these and virtual fields. */
  dataFields?: readonly string[];
}

export type SuppressReason =
  | 'schedule'
  | 'max_actions'
  | 'max_clicks'
  | 'click_type'
  | 'time_window'
  | 'not_edge'
  | 'first_value';

export interface Firing<TAction = unknown> {
  ruleId: string;
  /** Index into the batch's uplinks; null for a firing of the timer (no_data rules). */
  uplinkIndex: number | null;
  /** Engine time of the uplink (epoch ms). */
  at: number;
  dataField: string | null;
  value: number | null;
  /** Human-readable condition, e.g. `temperature gte 30 (value 31.5)`. */
  reason: string;
  actions: readonly TAction[];
}

export interface Suppression {
  ruleId: string;
  /** null for a timer tick. */
  uplinkIndex: number | null;
  at: number;
  reason: SuppressReason;
}

export type AlarmSource = { kind: 'rule'; ruleId: string } | { kind: 'sensor_check'; sensorCheckId: string };

export interface AlarmDecision {
  action: 'raise' | 'clear';
  source: AlarmSource;
  /** Index of the uplink that decided it; null for timer decisions. */
  uplinkIndex: number | null;
  at: number;
  dataField: string | null;
  value: number | null;
  /** e.g. `rule`, `no_data`, `implausible_value`, `battery_low`, `condition_ended`, `data_received`. */
  reason: string;
  details: Record<string, unknown>;
}

export interface FieldError {
  field: string;
  reason: 'missing_input' | 'non_finite';
}

export interface DerivedUplink {
  /** The uplink's data plus the stored virtual fields (mapped labels where a mapping applies). */
  data: Record<string, unknown>;
  /** Numeric values of all virtual fields (stored or not), before mapping: what rules compare. */
  virtual: Record<string, number>;
  errors: FieldError[];
  /**
   * Set when the uplink was older than the last one a rule or aggregation function of the device
   * evaluated: that latest last time, and the latest time it was evaluated at instead (`evaluationTime`).
   */
  late?: { lastAt: number; evaluatedAt: number };
}
