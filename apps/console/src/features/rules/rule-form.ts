import {
  ACTION_COMMANDS,
  type ActionCommandId,
  CONDITION_OPERATORS,
  type CommandParameter,
  type FieldRules,
  FORM_RULES,
  parseActionCommand,
  rule,
  TASK_TYPES,
  type ValidationError,
  validate,
  validateObject,
} from '@iot/domain';
import type { Rule, RuleAction, RuleInput } from './types';

/** Rule triggers of the API: a data value, a button click, or silence for a time window. */
export const RULE_TRIGGERS = ['data', 'click', 'no_data'] as const;
export type RuleTrigger = (typeof RULE_TRIGGERS)[number];

/** Operators that compare with one value; `in` and `out` take a range instead. */
export const RANGE_OPERATORS: readonly string[] = ['in', 'out'];
export const OPERATORS = CONDITION_OPERATORS;

/**
 * Channels the editor offers, in the order of the spec's list plus the http webhook of the API and the
 * farming task (offered only to companies with the farming module).
 */
export const ACTION_CHANNELS = [
  'email',
  'sms',
  'voice_message',
  'system',
  'http',
  'remote_control',
  'farming_task',
] as const;
export { TASK_TYPES };

/** Placeholders the notifier fills in email (and other) texts. */
export const TEXT_PLACEHOLDERS = ['{device}', '{field}', '{value}', '{unit}', '{time}', '{rule}'] as const;

export const VOICE_LANGUAGES = ['de-DE', 'en-GB', 'en-US', 'fr-FR', 'es-ES', 'it-IT', 'pl-PL'] as const;
export const HTTP_METHODS = ['POST', 'PUT', 'GET'] as const;
/** ISO weekdays 1 (Monday) to 7 (Sunday), as the API stores them. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

export interface RuleFormValues {
  name: string;
  is_active: boolean;
  trigger: RuleTrigger;
  data_field: string;
  operator: string;
  value: string;
  range_min: string;
  range_max: string;
  time_window_seconds: string;
  schedule_enabled: boolean;
  schedule: { start: string; end: string; weekdays: number[] };
  max_actions: string;
  max_actions_period_seconds: string;
  click_type: string;
  max_clicks: string;
  actions: RuleAction[];
}

const text = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
const num = (v: string): number | null => {
  const trimmed = v.trim().replace(',', '.');
  return trimmed === '' ? null : Number(trimmed);
};
const hhmm = (v: string | null | undefined) => (v ? v.slice(0, 5) : '');

/**
 * A stored action's config as the form edits it: the API answers SMS and voice numbers as lists; SMS
 * numbers become one per line, the voice call has one number.
 */
function configToForm(action: RuleAction): Record<string, unknown> {
  const c = { ...action.config };
  if (action.channel === 'sms' && Array.isArray(c.phone)) c.phone = c.phone.join('\n');
  if (action.channel === 'voice_message' && Array.isArray(c.phone)) c.phone = String(c.phone[0] ?? '');
  return c;
}

/** Form values of a stored rule, or of a new one (a data rule without actions). */
export function ruleToForm(stored: Rule | null): RuleFormValues {
  return {
    name: stored?.name ?? '',
    is_active: stored?.is_active ?? true,
    trigger: (RULE_TRIGGERS as readonly string[]).includes(stored?.trigger ?? '')
      ? (stored?.trigger as RuleTrigger)
      : 'data',
    data_field: stored?.data_field ?? '',
    operator: stored?.operator ?? 'gte',
    value: text(stored?.value),
    range_min: text(stored?.range_min),
    range_max: text(stored?.range_max),
    time_window_seconds: text(stored?.time_window_seconds ?? 0),
    schedule_enabled: !!stored?.schedule?.start,
    schedule: {
      start: hhmm(stored?.schedule?.start) || '08:00',
      end: hhmm(stored?.schedule?.end) || '18:00',
      weekdays: stored?.schedule?.weekdays ?? [1, 2, 3, 4, 5],
    },
    max_actions: text(stored?.max_actions),
    max_actions_period_seconds: text(stored?.max_actions_period_seconds),
    click_type: text(stored?.click_type ?? 1),
    max_clicks: text(stored?.max_clicks),
    // A new rule starts without actions: an empty one would block saving until filled in or removed.
    actions: stored?.actions.map((a) => ({ channel: a.channel, config: configToForm(a) })) ?? [],
  };
}

/**
 * Field rules of the rule form for the current values (spec section 5 and the API's rule checks): the
 * condition's fields depend on the trigger and operator; the schedule uses the domain's schedule rule.
 */
export function ruleFormRules(values: Readonly<Record<string, unknown>>): FieldRules {
  const v = values as Partial<RuleFormValues>;
  const rules: Record<string, readonly import('@iot/domain').Rule[]> = {
    name: ['required', rule.maxLength(255)],
    time_window_seconds: ['integer', rule.min(0)],
    max_actions: ['integer', rule.min(1)],
    max_actions_period_seconds: ['integer', rule.min(1)],
  };
  if (v.trigger === 'data') {
    rules.data_field = ['required'];
    rules.operator = ['required'];
    if (RANGE_OPERATORS.includes(v.operator ?? '')) {
      rules.range_min = ['required', 'decimal'];
      rules.range_max = ['required', 'decimal'];
    } else rules.value = ['required', 'decimal'];
  }
  if (v.trigger === 'no_data') rules.time_window_seconds = ['required', 'integer', rule.min(1)];
  if (v.trigger === 'click') {
    rules.click_type = ['required'];
    rules.max_clicks = ['integer', rule.min(1)];
  }
  if (v.schedule_enabled) rules.schedule = FORM_RULES.ruleSchedule.schedule;
  return rules;
}

/** The rule body for PUT /core/devices/{id}; fields the trigger does not use are sent empty. */
export function formToRule(values: RuleFormValues, id: number | null): RuleInput {
  const data = values.trigger === 'data';
  const range = data && RANGE_OPERATORS.includes(values.operator);
  const click = values.trigger === 'click';
  return {
    ...(id === null ? {} : { id }),
    name: values.name.trim(),
    is_active: values.is_active,
    trigger: values.trigger,
    data_field: data ? values.data_field : null,
    operator: data ? values.operator : null,
    value: data && !range ? num(values.value) : null,
    range_min: range ? num(values.range_min) : null,
    range_max: range ? num(values.range_max) : null,
    time_window_seconds: num(values.time_window_seconds) ?? 0,
    schedule: values.schedule_enabled
      ? {
          start: values.schedule.start,
          end: values.schedule.end,
          weekdays: [...values.schedule.weekdays].sort(),
        }
      : null,
    max_actions: num(values.max_actions),
    max_actions_period_seconds: num(values.max_actions_period_seconds),
    click_type: click ? num(values.click_type) : null,
    max_clicks: click ? num(values.max_clicks) : null,
    actions: values.actions.map((a) => ({ channel: a.channel, config: actionConfig(a) })),
  };
}

/** Phone numbers of an SMS action: one per line, comma or semicolon. */
export function splitPhones(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String).filter(Boolean);
  return String(value ?? '')
    .split(/[\n,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function actionConfig(action: RuleAction): Record<string, unknown> {
  const c = action.config;
  if (action.channel === 'sms') {
    const phones = splitPhones(c.phone);
    return { ...c, phone: phones.length === 1 ? phones[0] : phones };
  }
  if (action.channel === 'farming_task') {
    // Fields and assignee stay as stored (none: the field the device stands on, nobody).
    const due = String(c.due_in_hours ?? '').trim();
    return { ...c, due_in_hours: due === '' ? null : Number(due) };
  }
  if (action.channel === 'remote_control') {
    // The target device stays as stored (absent or null: the rule's own device).
    return {
      command: c.command,
      params: commandParams(String(c.command ?? ''), c.params),
      ...(typeof c.target_device_id === 'number' ? { target_device_id: c.target_device_id } : {}),
    };
  }
  return c;
}

/** Parameters of a command as numbers and booleans, only those the catalogue names. */
export function commandParams(command: string, params: unknown): Record<string, unknown> {
  const definition = ACTION_COMMANDS[command as ActionCommandId];
  const source = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const p of definition?.parameters ?? []) {
    const raw = source[p.name];
    if (p.kind === 'boolean') out[p.name] = raw === true || raw === 'true';
    else out[p.name] = raw === '' || raw === undefined || raw === null ? null : Number(raw);
  }
  return out;
}

/** Errors of one command with its parameters: unknown command, or error.range on the first bad one. */
export function commandErrors(command: string, params: unknown): Record<string, ValidationError> {
  if (!command) return { command: { key: 'error.required' } };
  const parsed = parseActionCommand({ ...commandParams(command, params), command });
  if (parsed.ok) return {};
  if (parsed.parameter === 'command') return { command: { key: 'error.unknown' } };
  const parameters: readonly CommandParameter[] =
    ACTION_COMMANDS[command as ActionCommandId]?.parameters ?? [];
  const definition = parameters.find((p) => p.name === parsed.parameter);
  return {
    [`params.${parsed.parameter}`]: {
      key: 'error.range',
      params: { min: definition?.min ?? 0, max: definition?.max ?? 0 },
    },
  };
}

/** Field errors of an action's config per channel, with the domain's FORM_RULES where they exist. */
export function actionErrors(action: RuleAction): Record<string, ValidationError> {
  const c = action.config;
  switch (action.channel) {
    case 'email':
      return validateObject(c, FORM_RULES.emailAction);
    case 'sms': {
      const errors = validateObject({ ...c, phone: 'x' }, { body: FORM_RULES.smsAction.body });
      const phones = splitPhones(c.phone);
      if (phones.length === 0) errors.phone = { key: 'error.required' };
      for (const phone of phones) {
        const error = validate(phone, FORM_RULES.smsAction.phone);
        if (error) {
          errors.phone = error;
          break;
        }
      }
      return errors;
    }
    case 'voice_message':
      return validateObject(c, FORM_RULES.voiceAction);
    case 'system':
      return validateObject(c, { subject: ['required', rule.maxLength(255)], text: ['required'] });
    case 'http': {
      const errors = validateObject(c, { url: ['required'] });
      if (!errors.url && !/^https?:\/\/\S+$/i.test(String(c.url))) errors.url = { key: 'error.url' };
      return errors;
    }
    case 'remote_control':
      return commandErrors(String(c.command ?? ''), c.params);
    case 'farming_task':
      return validateObject(
        { ...c, due_in_hours: c.due_in_hours === null ? '' : c.due_in_hours },
        {
          title: ['required', rule.maxLength(200)],
          due_in_hours: ['integer', rule.range(0, 8760)],
        },
      );
    default:
      return { channel: { key: 'error.unknown' } };
  }
}

/** Default config of a channel when an action is added or its channel changes. */
export function emptyConfig(channel: string): Record<string, unknown> {
  switch (channel) {
    case 'email':
      return { recipient: '', cc: '', subject: '', body: '' };
    case 'sms':
      return { phone: '', body: '' };
    case 'voice_message':
      return { phone: '', message: '', language: 'de-DE' };
    case 'system':
      return { subject: '', text: '' };
    case 'http':
      return { method: 'POST', url: '', body: '' };
    case 'remote_control':
      return { command: 'request_uplink', params: {} };
    case 'farming_task':
      return { title: '', notes: '', task_type: 'irrigation', due_in_hours: '24' };
    default:
      return {};
  }
}
