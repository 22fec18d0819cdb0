import { type ApiError, apiError, isConditionOperator, parseTimeOfDay } from '@iot/domain';
import type { Rule } from './types';

/**
 * Checks a rule as the engine needs it; the API answers 78 (RULE_INVALID) with details.problem.
 * Unlike the database constraint and the domain's validateSchedule (start before end, spec section 5),
 * a schedule across midnight (start after end) is evaluated by the engine; whether the API admits it
 * is the API's decision, so it is not refused here.
 */
export function validateRule(rule: Rule): ApiError | null {
  const invalid = (problem: string) => apiError('RULE_INVALID', { problem });
  if (rule.trigger === 'data') {
    if (!rule.dataField) return invalid('data_field');
    if (!isConditionOperator(rule.operator)) return invalid('operator');
    if (rule.operator === 'in' || rule.operator === 'out') {
      if (!Number.isFinite(rule.rangeMin) || !Number.isFinite(rule.rangeMax)) return invalid('range');
      if ((rule.rangeMin as number) > (rule.rangeMax as number)) return invalid('range');
    } else if (!Number.isFinite(rule.value)) return invalid('value');
  } else if (rule.trigger === 'click') {
    const clickType = rule.clickType ?? 0;
    if (!Number.isInteger(clickType) || clickType < 1 || clickType > 7) return invalid('click_type');
  } else if (rule.trigger === 'no_data') {
    if (!rule.timeWindowSeconds || rule.timeWindowSeconds <= 0) return invalid('time_window');
  } else return invalid('trigger');
  if ((rule.timeWindowSeconds ?? 0) < 0) return invalid('time_window');
  const start = rule.scheduleStart ?? null;
  const end = rule.scheduleEnd ?? null;
  if ((start === null) !== (end === null)) return invalid('schedule_time');
  if (start !== null && (parseTimeOfDay(start) === null || parseTimeOfDay(end) === null))
    return invalid('schedule_time');
  if (rule.scheduleWeekdays?.some((day) => !Number.isInteger(day) || day < 1 || day > 7))
    return invalid('schedule_weekdays');
  if ((rule.maxActions == null) !== (rule.maxActionsPeriodSeconds == null)) return invalid('max_actions');
  if (rule.maxActions != null && (rule.maxActions < 1 || (rule.maxActionsPeriodSeconds ?? 0) < 1))
    return invalid('max_actions');
  if (rule.maxClicks != null && (!Number.isInteger(rule.maxClicks) || rule.maxClicks < 1))
    return invalid('max_clicks');
  return null;
}
