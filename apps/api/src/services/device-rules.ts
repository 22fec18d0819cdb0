/**
 * Rules of a device (spec sections 3, 5, 6, 8): read with GET /core/devices/{id}, written through
 * PUT /core/devices/{id} with a `rules` array, deleted with DELETE /core/devices/{device_id}/rules/{rule_id}.
 *
 * Checks, in order, before anything is written:
 * 1. field rules of the console's forms (422, `details.fields['rules.<i>.<field>']`): the schedule (domain
 *    rule: start before end, at least one weekday), each action's config by channel with FORM_RULES
 *    (email recipient and cc, sms/voice phone numbers, subjects and bodies), http URL and method, remote
 *    control command and parameters (domain's parseActionCommand);
 * 2. the engine's validateRule (78, `details: { problem, rule: i }`), plus click types 1, 2, 4 only (the
 *    database's constraint) and a `virtual.<uuid>.<name>` data field naming one of the device's virtual fields;
 * 3. rule ids of this device (50), remote-control targets of this company (10).
 * Then one transaction writes every rule and replaces its actions; a failure is 81 (a new rule among them)
 * or 82. The schedule must have start before end: the engine could run a window across midnight, but the
 * spec and the rules_schedule_valid constraint do not allow it.
 */
import type { Db, Queryable } from '@iot/db/db';
import { clearOpenAlarms } from '@iot/db/repositories/alarms';
import { findDevice } from '@iot/db/repositories/devices';
import {
  deleteRule,
  existingRuleIds,
  insertRule,
  listDeviceRules,
  type RuleActionRecord,
  type RuleActionValues,
  type RuleRecord,
  type RuleValues,
  replaceRuleActions,
  updateRule,
} from '@iot/db/repositories/rules';
import { listVirtualFields } from '@iot/db/repositories/virtual-fields';
import { withTenant } from '@iot/db/tenant';
import {
  ACTION_COMMANDS,
  type ActionCommandId,
  FORM_RULES,
  rule as formRule,
  isApiError,
  isNotificationChannel,
  parseActionCommand,
  parseVirtualFieldName,
  splitEmails,
  type ValidationError,
  validate,
  validateObject,
  validateSchedule,
} from '@iot/domain';
import { type Rule as EngineRule, validateRule } from '@iot/rules-engine';
import { apiError } from '../lib/errors';
import { isManager } from '../plugins/guards';
import type { AuthContext } from '../types';

export interface RuleScheduleInput {
  start?: string | null;
  end?: string | null;
  weekdays?: number[];
}

export interface RuleActionInput {
  channel: string;
  config?: Record<string, unknown>;
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
const HTTP_METHODS = ['GET', 'POST', 'PUT'] as const;
// Twilio's <Say language> takes xx-XX tags (de-DE, en-GB); the notifier defaults to de-DE.
const VOICE_LANGUAGE = /^[a-z]{2,3}-[A-Z]{2}$/;
const TEXT_MAX = [formRule.maxLength(4000)];

type FieldErrors = Record<string, ValidationError>;

interface PreparedRule {
  id: number | undefined;
  values: RuleValues;
  actions: RuleActionValues[];
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** One or several phone numbers as given (text or list). */
function phoneList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value === undefined || value === null || value === '') return [];
  return [value];
}

function checkPhones(
  value: unknown,
  rules: readonly (typeof FORM_RULES.smsAction.phone)[number][] | readonly string[],
  key: string,
  errors: FieldErrors,
): string[] {
  const phones = phoneList(value);
  if (phones.length === 0) errors[key] = { key: 'error.required' };
  phones.forEach((p, k) => {
    const error = validate(p, rules as never);
    if (error) errors[Array.isArray(value) ? `${key}.${k}` : key] = error;
  });
  return phones.map((p) => String(p).trim());
}

function checkFields(
  values: Record<string, unknown>,
  rules: Record<string, readonly unknown[]>,
  prefix: string,
  errors: FieldErrors,
) {
  for (const [field, error] of Object.entries(validateObject(values, rules as never)))
    errors[`${prefix}.${field}`] = error;
}

/** Turns one action's config into rule_actions columns, recording field errors under `prefix`. */
function prepareAction(
  action: RuleActionInput,
  deviceId: number,
  prefix: string,
  errors: FieldErrors,
): RuleActionValues | null {
  const config = action.config ?? {};
  const base: RuleActionValues = {
    type: 'system',
    recipients: [],
    cc: [],
    subject: null,
    body: null,
    voiceLanguage: null,
    url: null,
    httpMethod: null,
    targetDeviceId: null,
    command: null,
    commandParams: {},
    settings: {},
  };
  if (!isNotificationChannel(action.channel)) {
    errors[`${prefix}.channel`] = { key: 'error.unknown' };
    return null;
  }
  switch (action.channel) {
    case 'email': {
      checkFields(config, { ...FORM_RULES.emailAction, body: ['required', ...TEXT_MAX] }, prefix, errors);
      const cc = typeof config.cc === 'string' ? splitEmails(config.cc) : [];
      return {
        ...base,
        type: 'email',
        recipients: [String(config.recipient ?? '').trim()],
        cc,
        subject: str(config.subject),
        body: str(config.body),
      };
    }
    case 'sms': {
      const recipients = checkPhones(config.phone, FORM_RULES.smsAction.phone, `${prefix}.phone`, errors);
      checkFields(config, { body: FORM_RULES.smsAction.body }, prefix, errors);
      return { ...base, type: 'sms', recipients, body: str(config.body) };
    }
    case 'voice_message': {
      const recipients = checkPhones(config.phone, FORM_RULES.voiceAction.phone, `${prefix}.phone`, errors);
      checkFields(config, { message: [...FORM_RULES.voiceAction.message, ...TEXT_MAX] }, prefix, errors);
      const language = str(config.language) ?? 'de-DE';
      if (!VOICE_LANGUAGE.test(language)) errors[`${prefix}.language`] = { key: 'error.unknown' };
      return {
        ...base,
        type: 'voice_message',
        recipients,
        body: str(config.message),
        voiceLanguage: language,
      };
    }
    case 'system': {
      checkFields(config, { subject: FORM_RULES.emailAction.subject, text: TEXT_MAX }, prefix, errors);
      const level = config.level;
      if (level !== undefined && level !== null && validate(level, ['integer', formRule.range(0, 7)]))
        errors[`${prefix}.level`] = { key: 'error.range', params: { min: 0, max: 7 } };
      return {
        ...base,
        type: 'system',
        subject: str(config.subject),
        body: str(config.text),
        settings: typeof level === 'number' ? { level } : {},
      };
    }
    case 'http': {
      const url = str(config.url);
      let parsed: URL | null = null;
      try {
        parsed = url ? new URL(url) : null;
      } catch {
        parsed = null;
      }
      if (!url) errors[`${prefix}.url`] = { key: 'error.required' };
      else if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
        errors[`${prefix}.url`] = { key: 'error.unknown' };
      const method = config.method ?? 'POST';
      if (!HTTP_METHODS.includes(method as never)) errors[`${prefix}.method`] = { key: 'error.unknown' };
      const headers = config.headers ?? {};
      const headersOk =
        typeof headers === 'object' &&
        headers !== null &&
        !Array.isArray(headers) &&
        Object.entries(headers).every(
          ([k, v]) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k) && typeof v === 'string',
        );
      if (!headersOk) errors[`${prefix}.headers`] = { key: 'error.unknown' };
      if (config.body !== undefined && config.body !== null && typeof config.body !== 'string')
        errors[`${prefix}.body`] = { key: 'error.unknown' };
      return {
        ...base,
        type: 'http',
        url,
        httpMethod: method as RuleActionValues['httpMethod'],
        body: str(config.body),
        settings: headersOk ? { headers } : {},
      };
    }
    case 'remote_control': {
      const params = config.params ?? {};
      const parsed =
        typeof params === 'object' && params !== null && !Array.isArray(params)
          ? parseActionCommand({ ...params, command: config.command })
          : ({ ok: false, parameter: 'params' } as const);
      if (!parsed.ok) {
        errors[
          parsed.parameter === 'command' ? `${prefix}.command` : `${prefix}.params.${parsed.parameter}`
        ] = commandError(config.command, parsed.parameter);
        return null;
      }
      const { command, ...commandParams } = parsed.value;
      const target = config.target_device_id;
      if (
        target !== undefined &&
        target !== null &&
        !(Number.isSafeInteger(target) && (target as number) > 0)
      )
        errors[`${prefix}.target_device_id`] = { key: 'error.integer' };
      return {
        ...base,
        type: 'remote_control',
        command,
        commandParams,
        targetDeviceId: typeof target === 'number' ? target : deviceId,
      };
    }
  }
}

/** The form message for a bad command or parameter: the parameter's bounds when it has them. */
function commandError(command: unknown, parameter: string): ValidationError {
  if (parameter === 'command' || typeof command !== 'string' || !Object.hasOwn(ACTION_COMMANDS, command))
    return { key: 'error.unknown' };
  const definition = ACTION_COMMANDS[command as ActionCommandId].parameters.find((p) => p.name === parameter);
  if (definition && 'min' in definition && 'max' in definition)
    return { key: 'error.range', params: { min: definition.min, max: definition.max } };
  return { key: 'error.required' };
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
    const prepared = prepareAction(action, deviceId, `${prefix}.actions.${j}`, errors);
    if (prepared) actions.push(prepared);
  });
  return { id: input.id, values, actions };
}

/**
 * Validates the rules of a PUT /core/devices/{id} against the device (manager only: 64; device of the
 * acting company: 10). Throws 422, 78, 50 or 10 as described above; returns what `saveDeviceRules` writes.
 */
export async function prepareDeviceRules(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  inputs: readonly RuleInput[],
): Promise<PreparedRule[]> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_CREATE_USER');
  const errors: FieldErrors = {};
  const prepared = inputs.map((input, i) => prepareRule(input, i, deviceId, errors));
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
    return prepared;
  });
}

/** Writes prepared rules in one transaction: new ones inserted, listed ones updated, actions replaced. */
export async function saveDeviceRules(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  rules: readonly PreparedRule[],
): Promise<void> {
  if (rules.length === 0) return;
  const creates = rules.some((r) => r.id === undefined);
  try {
    await withTenant(db, auth.companyId, async (tx: Queryable) => {
      for (const rule of rules) {
        let id = rule.id;
        if (id === undefined) id = await insertRule(tx, auth.companyId, deviceId, rule.values);
        else {
          const updated = await updateRule(tx, auth.companyId, deviceId, id, rule.values);
          if (!updated) throw apiError('RULE_NOT_FOUND', { id });
          if (updated.conditionChanged)
            await clearOpenAlarms(tx, auth.companyId, { ruleId: id }, 'rule_changed');
        }
        await replaceRuleActions(tx, auth.companyId, id, rule.actions);
      }
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError(creates ? 'RULE_CREATE_FAILED' : 'RULE_UPDATE_FAILED');
  }
}

export async function listRulesOfDevice(db: Db, auth: AuthContext, deviceId: number): Promise<RuleRecord[]> {
  return withTenant(db, auth.companyId, (tx) => listDeviceRules(tx, auth.companyId, deviceId));
}

/** DELETE /core/devices/{device_id}/rules/{rule_id}: 64 without the role, 10 device, 50 rule, 83 failure. */
export async function deleteDeviceRule(
  db: Db,
  auth: AuthContext,
  deviceId: number,
  ruleId: number,
): Promise<void> {
  if (!isManager(auth)) throw apiError('NO_PERMISSION_TO_CREATE_USER');
  try {
    await withTenant(db, auth.companyId, async (tx) => {
      if (!(await findDevice(tx, auth.companyId, deviceId))) throw apiError('DEVICE_NOT_FOUND');
      if (!(await deleteRule(tx, auth.companyId, deviceId, ruleId))) throw apiError('RULE_NOT_FOUND');
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    throw apiError('RULE_DELETE_FAILED');
  }
}

/** A rule as the API shows it; each action's config has the keys its channel takes on input. */
export function presentRule(rule: RuleRecord) {
  return {
    id: rule.id,
    device_id: rule.deviceId,
    name: rule.name,
    is_active: rule.isActive,
    trigger: rule.trigger,
    data_field: rule.dataField,
    operator: rule.operator,
    value: rule.value,
    range_min: rule.rangeMin,
    range_max: rule.rangeMax,
    time_window_seconds: rule.timeWindowSeconds,
    schedule:
      rule.scheduleStart === null && rule.scheduleWeekdays.length === 7
        ? null
        : { start: rule.scheduleStart, end: rule.scheduleEnd, weekdays: rule.scheduleWeekdays },
    max_actions: rule.maxActions,
    max_actions_period_seconds: rule.maxActionsPeriodSeconds,
    click_type: rule.clickType,
    max_clicks: rule.maxClicks,
    last_fired_at: rule.lastFiredAt ? rule.lastFiredAt.toISOString() : null,
    actions: rule.actions.map(presentAction),
  };
}

function presentAction(a: RuleActionRecord) {
  const config = (): Record<string, unknown> => {
    switch (a.type) {
      case 'email':
        return { recipient: a.recipients[0] ?? '', cc: a.cc.join(', '), subject: a.subject, body: a.body };
      case 'sms':
        return { phone: a.recipients, body: a.body };
      case 'voice_message':
        return { phone: a.recipients, message: a.body, language: a.voiceLanguage };
      case 'system':
        return {
          subject: a.subject,
          text: a.body,
          ...(a.settings.level === undefined ? {} : { level: a.settings.level }),
        };
      case 'http':
        return { method: a.httpMethod, url: a.url, headers: a.settings.headers ?? {}, body: a.body };
      case 'remote_control':
        return { command: a.command, params: a.commandParams, target_device_id: a.targetDeviceId };
    }
  };
  return { id: a.id, channel: a.type, config: config() };
}
