/**
 * Rules of a device (spec sections 3, 5, 6, 8): read with GET /core/devices/{id}, written through
 * PUT /core/devices/{id} with a `rules` array, deleted with DELETE /core/devices/{device_id}/rules/{rule_id}.
 *
 * Checks, in order, before anything is written:
 * 1. field rules of the console's forms (422, `details.fields['rules.<i>.<field>']`): the schedule (domain
 *    rule: start before end, at least one weekday), each action's config by channel with FORM_RULES
 *    (email recipient and cc, sms/voice phone numbers, subjects and bodies), http URL and method, remote
 *    control command and parameters (domain's parseActionCommand), and http targets in loopback, private or
 *    link-local space (`error.private-target`, unless HTTP_ACTIONS_ALLOW_PRIVATE): the send-time guard
 *    refuses them anyway, so saving one would only make a rule that fails every time it fires;
 * 2. the engine's validateRule (78, `details: { problem, rule: i }`), plus click types 1, 2, 4 only (the
 *    database's constraint) and a `virtual.<uuid>.<name>` data field naming one of the device's virtual fields;
 * 3. rule ids of this device (50), remote-control targets of this company (10); a farming_task action
 *    needs the farming licence (27), the company's fields (20064) and a user of the company (20063).
 * Then one transaction writes every rule and replaces its actions; a failure is 81 (a new rule among them)
 * or 82. The schedule must have start before end: the engine could run a window across midnight, but the
 * spec and the rules_schedule_valid constraint do not allow it.
 */
import type { Db, Queryable } from '@iot/db';
import {
  existingRuleIds,
  findDevice,
  isCompanyUser,
  listVirtualFields,
  ownedFieldIds,
  type RuleActionValues,
  type RuleValues,
  withTenant,
} from '@iot/db';
import { privateTargetReason } from '@iot/delivery';
import { rule as formRule, hasModule, parseVirtualFieldName, validate, validateSchedule } from '@iot/domain';
import { type Rule as EngineRule, validateRule } from '@iot/rules-engine';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';
import { type FieldErrors, prepareRuleAction, type RuleActionInput, str } from './prepare-rule-action';

export interface RuleScheduleInput {
  start?: string | null;
  end?: string | null;
  weekdays?: number[];
}

export interface RuleInput {
  id?: number;
  name?: string;
  trigger: string;
  data_field?: string | null;
  operator?: string | null;
  value?: number | null;
  range_min?: number | null;
  range_max?: number | null;
  time_window_seconds?: number;
  schedule?: RuleScheduleInput | null;
  max_actions?: number | null;
  max_actions_period_seconds?: number | null;
  click_type?: number | null;
  max_clicks?: number | null;
  is_active?: boolean;
  actions?: RuleActionInput[];
}

const ALL_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];
const CLICK_TYPE_VALUES = new Set([1, 2, 4]);

/** A rule checked and ready to write: `id` undefined for a new one. */
export interface PreparedRule {
  id: number | undefined;
  values: RuleValues;
  actions: RuleActionValues[];
}

function scheduleOf(schedule: RuleScheduleInput | null | undefined, prefix: string, errors: FieldErrors) {
  if (!schedule) return { start: null, end: null, weekdays: ALL_WEEKDAYS };
  const weekdays = [...new Set(schedule.weekdays ?? ALL_WEEKDAYS)].sort();
  const start = str(schedule.start);
  const end = str(schedule.end);
  if (start === null && end === null) {
    // Weekdays alone: all day on those days; the domain rule's "at least one weekday" still holds.
    if (weekdays.length === 0) errors[`${prefix}.schedule`] = { key: 'error.schedule-weekdays' };
  } else {
    const error = validateSchedule({ start, end, weekdays });
    if (error) errors[`${prefix}.schedule`] = error;
  }
  return { start, end, weekdays };
}

function toEngineRule(values: RuleValues): EngineRule {
  return {
    id: '0',
    trigger: values.trigger,
    dataField: values.dataField,
    operator: values.operator as EngineRule['operator'],
    value: values.value,
    rangeMin: values.rangeMin,
    rangeMax: values.rangeMax,
    timeWindowSeconds: values.timeWindowSeconds,
    scheduleStart: values.scheduleStart,
    scheduleEnd: values.scheduleEnd,
    scheduleWeekdays: values.scheduleWeekdays,
    maxActions: values.maxActions,
    maxActionsPeriodSeconds: values.maxActionsPeriodSeconds,
    clickType: values.clickType,
    maxClicks: values.maxClicks,
  };
}

function prepareRule(input: RuleInput, i: number, deviceId: number, errors: FieldErrors): PreparedRule {
  const prefix = `rules.${i}`;
  const name = (input.name ?? '').trim();
  const nameError = validate(name, [formRule.maxLength(255)]);
  if (nameError) errors[`${prefix}.name`] = nameError;
  const schedule = scheduleOf(input.schedule, prefix, errors);
  const trigger = input.trigger as RuleValues['trigger'];
  const isData = trigger === 'data';
  const ranged = input.operator === 'in' || input.operator === 'out';
  const values: RuleValues = {
    name,
    isActive: input.is_active ?? true,
    trigger,
    // Only a data rule compares a field; click and no-data rules keep none (the condition constraint).
    dataField: isData ? (str(input.data_field) ?? null) : null,
    operator: isData ? (input.operator ?? null) : null,
    value: isData && !ranged ? (input.value ?? null) : null,
    rangeMin: isData && ranged ? (input.range_min ?? null) : null,
    rangeMax: isData && ranged ? (input.range_max ?? null) : null,
    timeWindowSeconds: input.time_window_seconds ?? 0,
    scheduleStart: schedule.start,
    scheduleEnd: schedule.end,
    scheduleWeekdays: schedule.weekdays,
    maxActions: input.max_actions ?? null,
    maxActionsPeriodSeconds: input.max_actions_period_seconds ?? null,
    clickType: trigger === 'click' ? (input.click_type ?? null) : null,
    maxClicks: trigger === 'click' ? (input.max_clicks ?? null) : null,
  };
  const actions: RuleActionValues[] = [];
  (input.actions ?? []).forEach((action, j) => {
    const prepared = prepareRuleAction(action, deviceId, `${prefix}.actions.${j}`, errors);
    if (prepared) actions.push(prepared);
  });
  return { id: input.id, values, actions };
}

/** Marks each http action whose URL the notifier would refuse to call (see the header, check 1). */
async function checkHttpTargets(inputs: readonly RuleInput[], allowPrivate: boolean, errors: FieldErrors) {
  const checks = inputs.flatMap((input, i) =>
    (input.actions ?? []).map(async (action, j) => {
      const key = `rules.${i}.actions.${j}.url`;
      const url = str(action.config?.url);
      if (action.channel !== 'http' || url === null || errors[key]) return;
      const reason = await privateTargetReason(url, allowPrivate);
      if (reason) errors[key] = { key: 'error.private-target', params: { reason } };
    }),
  );
  await Promise.all(checks);
}

/**
 * A farming_task action needs the farming licence (27), fields of the company (20064) and an assignee of
 * the company (20063): the notifier would otherwise create tasks nobody can see or drop the fields.
 */
async function checkFarmingTaskActions(tx: Queryable, auth: AuthContext, prepared: readonly PreparedRule[]) {
  const actions = prepared.flatMap((r) => r.actions.filter((a) => a.type === 'farming_task'));
  if (actions.length === 0) return;
  if (!hasModule(auth.realCompanyId, auth.company.modules, 'farming'))
    throw apiError('MODULE_NOT_LICENSED', { module: 'farming' });
  for (const action of actions) {
    const fieldIds = (action.settings.field_ids ?? []) as number[];
    if ((await ownedFieldIds(tx, auth.companyId, fieldIds)).length !== fieldIds.length)
      throw apiError('TASK_FIELD_INVALID');
    const assignee = action.settings.assignee_user_id;
    if (typeof assignee === 'number' && !(await isCompanyUser(tx, auth.companyId, assignee)))
      throw apiError('TASK_ASSIGNEE_INVALID');
  }
}

/**
 * Validates the rules of a PUT /core/devices/{id} against the device (manager only: 90004; device of the
 * acting company: 10). Throws 422, 78, 50 or 10 as described above; returns what `saveDeviceRules` writes.
 */
export async function prepareDeviceRules(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  inputs: readonly RuleInput[],
  allowPrivateTargets = false,
): Promise<PreparedRule[]> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_MANAGE_RULES');
  const errors: FieldErrors = {};
  const prepared = inputs.map((input, i) => prepareRule(input, i, deviceId, errors));
  await checkHttpTargets(inputs, allowPrivateTargets, errors);
  if (Object.keys(errors).length > 0) throw apiError('INPUT_ERROR', { fields: errors });
  prepared.forEach((rule, i) => {
    const error = validateRule(toEngineRule(rule.values));
    if (error) throw apiError('RULE_INVALID', { ...(error.details as object), rule: i });
    if (rule.values.trigger === 'click' && !CLICK_TYPE_VALUES.has(rule.values.clickType ?? 0))
      throw apiError('RULE_INVALID', { problem: 'click_type', rule: i });
  });
  return withTenant(db, auth.companyId, async (tx) => {
    if (!(await findDevice(tx, auth.companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
    const virtualKeys = new Set(
      (await listVirtualFields(tx, auth.companyId, deviceId)).map((f) => `${f.uuid}.${f.name}`),
    );
    prepared.forEach((rule, i) => {
      const field = rule.values.dataField;
      if (field === null || !field.startsWith('virtual.')) return;
      const parsed = parseVirtualFieldName(field);
      if (!parsed || !virtualKeys.has(`${parsed.uuid}.${parsed.name}`))
        throw apiError('RULE_INVALID', { problem: 'data_field', rule: i, data_field: field });
    });
    const ids = prepared.flatMap((r) => (r.id === undefined ? [] : [r.id]));
    const known = await existingRuleIds(tx, auth.companyId, deviceId, ids);
    const missing = ids.find((id) => !known.has(id));
    if (missing !== undefined) throw apiError('RULE_NOT_FOUND', { id: missing });
    const targets = [...new Set(prepared.flatMap((r) => r.actions.flatMap((a) => a.targetDeviceId ?? [])))];
    for (const target of targets) {
      if (target !== deviceId && !(await findDevice(tx, auth.companyId, target)))
        throw apiError('DEVICE_NOT_FOUND', { target_device_id: target });
    }
    await checkFarmingTaskActions(tx, auth, prepared);
    return prepared;
  });
}
