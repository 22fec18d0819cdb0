/** Aggregation functions for virtual data fields (spec section 3). */
export const AGGREGATION_FUNCTIONS = [
  'count_up_hourly',
  'count_up_daily',
  'diff_to_last',
  'moving_average_hourly',
  'moving_average_daily',
  'sum_up',
] as const;
export type AggregationFunction = (typeof AGGREGATION_FUNCTIONS)[number];

/**
 * Rule condition operators (spec section 3): lte, gte, eq; in/out of a range;
 * rie = threshold reached while rising, fae = threshold reached while falling.
 */
export const CONDITION_OPERATORS = ['lte', 'gte', 'eq', 'in', 'out', 'rie', 'fae'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** Button click types (spec sections 3, 9); powers of two so a rule can match several at once. */
export const CLICK_TYPES = { single: 1, double: 2, long: 4 } as const;
export type ClickTypeName = keyof typeof CLICK_TYPES;
export type ClickType = (typeof CLICK_TYPES)[ClickTypeName];

/**
 * Notification channels (spec section 3) plus `http`, the webhook action of section 1
 * ("system message, http, remote control") that the spec's channel list leaves out, and
 * `farming_task`, which creates a task in the farming planner (issue 24: "a rule may create a task").
 */
export const NOTIFICATION_CHANNELS = [
  'system',
  'email',
  'remote_control',
  'sms',
  'voice_message',
  'http',
  'farming_task',
] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export function isAggregationFunction(value: unknown): value is AggregationFunction {
  return typeof value === 'string' && (AGGREGATION_FUNCTIONS as readonly string[]).includes(value);
}

export function isConditionOperator(value: unknown): value is ConditionOperator {
  return typeof value === 'string' && (CONDITION_OPERATORS as readonly string[]).includes(value);
}

export function isNotificationChannel(value: unknown): value is NotificationChannel {
  return typeof value === 'string' && (NOTIFICATION_CHANNELS as readonly string[]).includes(value);
}
