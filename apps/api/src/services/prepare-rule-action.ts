/**
 * One rule action's config, checked by channel with the console's FORM_RULES (email recipient and cc,
 * sms/voice phone numbers, subjects and bodies), http URL, method and headers, remote-control command and
 * parameters (domain's parseActionCommand), and turned into rule_actions columns.
 */
import type { RuleActionValues } from '@iot/db';
import {
  ACTION_COMMANDS,
  type ActionCommandId,
  FORM_RULES,
  rule as formRule,
  isNotificationChannel,
  type NotificationChannel,
  parseActionCommand,
  splitEmails,
  TASK_TYPES,
  type ValidationError,
  validate,
  validateObject,
} from '@iot/domain';

export interface RuleActionInput {
  channel: string;
  config?: Record<string, unknown>;
}

/** Field errors by their form key, e.g. `rules.0.actions.1.phone`. */
export type FieldErrors = Record<string, ValidationError>;

const HTTP_METHODS = ['GET', 'POST', 'PUT'] as const;
// Twilio's <Say language> takes xx-XX tags (de-DE, en-GB); the notifier defaults to de-DE.
const VOICE_LANGUAGE = /^[a-z]{2,3}-[A-Z]{2}$/;
const TEXT_MAX = [formRule.maxLength(4000)];

/** A trimmed, non-empty text, else null. */
export function str(value: unknown): string | null {
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

/** What a channel's check needs beside the config: the empty columns, the device, where errors go. */
interface ActionContext {
  base: RuleActionValues;
  deviceId: number;
  prefix: string;
  errors: FieldErrors;
}

type PrepareChannel = (config: Record<string, unknown>, at: ActionContext) => RuleActionValues | null;

function emailAction(config: Record<string, unknown>, { base, prefix, errors }: ActionContext) {
  checkFields(config, { ...FORM_RULES.emailAction, body: ['required', ...TEXT_MAX] }, prefix, errors);
  const cc = typeof config.cc === 'string' ? splitEmails(config.cc) : [];
  return {
    ...base,
    type: 'email',
    recipients: [String(config.recipient ?? '').trim()],
    cc,
    subject: str(config.subject),
    body: str(config.body),
  } satisfies RuleActionValues;
}

function smsAction(config: Record<string, unknown>, { base, prefix, errors }: ActionContext) {
  const recipients = checkPhones(config.phone, FORM_RULES.smsAction.phone, `${prefix}.phone`, errors);
  checkFields(config, { body: FORM_RULES.smsAction.body }, prefix, errors);
  return { ...base, type: 'sms', recipients, body: str(config.body) } satisfies RuleActionValues;
}

function voiceAction(config: Record<string, unknown>, { base, prefix, errors }: ActionContext) {
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
  } satisfies RuleActionValues;
}

function systemAction(config: Record<string, unknown>, { base, prefix, errors }: ActionContext) {
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
  } satisfies RuleActionValues;
}

function httpAction(config: Record<string, unknown>, { base, prefix, errors }: ActionContext) {
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
  } satisfies RuleActionValues;
}

function remoteControlAction(
  config: Record<string, unknown>,
  { base, deviceId, prefix, errors }: ActionContext,
) {
  const params = config.params ?? {};
  const parsed =
    typeof params === 'object' && params !== null && !Array.isArray(params)
      ? parseActionCommand({ ...params, command: config.command })
      : ({ ok: false, parameter: 'params' } as const);
  if (!parsed.ok) {
    errors[parsed.parameter === 'command' ? `${prefix}.command` : `${prefix}.params.${parsed.parameter}`] =
      commandError(config.command, parsed.parameter);
    return null;
  }
  const { command, ...commandParams } = parsed.value;
  const target = config.target_device_id;
  if (target !== undefined && target !== null && !(Number.isSafeInteger(target) && (target as number) > 0))
    errors[`${prefix}.target_device_id`] = { key: 'error.integer' };
  return {
    ...base,
    type: 'remote_control',
    command,
    commandParams,
    targetDeviceId: typeof target === 'number' ? target : deviceId,
  } satisfies RuleActionValues;
}

/** Whole positive ids from a list (anything else marks the list wrong). */
function idList(value: unknown, key: string, errors: FieldErrors): number[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => Number.isSafeInteger(v) && v > 0)) {
    errors[key] = { key: 'error.integer' };
    return [];
  }
  return [...new Set(value as number[])];
}

/**
 * farming_task (issue 24): the rule creates a task in the farming planner. Title in `subject`, notes in
 * `body`; the task type, the fields (none: the field the firing device stands on), the due date as hours
 * after the firing and the assignee in `settings`.
 */
function farmingTaskAction(config: Record<string, unknown>, { base, prefix, errors }: ActionContext) {
  checkFields(
    config,
    { title: ['required', formRule.maxLength(200)], notes: [formRule.maxLength(5000)] },
    prefix,
    errors,
  );
  const taskType = config.task_type ?? 'custom';
  if (!(TASK_TYPES as readonly unknown[]).includes(taskType))
    errors[`${prefix}.task_type`] = { key: 'error.unknown' };
  const fieldIds = idList(config.field_ids, `${prefix}.field_ids`, errors);
  const due = config.due_in_hours;
  if (due !== undefined && due !== null && validate(due, ['integer', formRule.range(0, 8760)]))
    errors[`${prefix}.due_in_hours`] = { key: 'error.range', params: { min: 0, max: 8760 } };
  const assignee = config.assignee_user_id;
  if (
    assignee !== undefined &&
    assignee !== null &&
    !(Number.isSafeInteger(assignee) && (assignee as number) > 0)
  )
    errors[`${prefix}.assignee_user_id`] = { key: 'error.integer' };
  return {
    ...base,
    type: 'farming_task',
    subject: str(config.title),
    body: str(config.notes),
    settings: {
      task_type: taskType,
      field_ids: fieldIds,
      due_in_hours: typeof due === 'number' ? due : null,
      assignee_user_id: typeof assignee === 'number' ? assignee : null,
    },
  } satisfies RuleActionValues;
}

const PREPARE_BY_CHANNEL: Record<NotificationChannel, PrepareChannel> = {
  email: emailAction,
  sms: smsAction,
  voice_message: voiceAction,
  system: systemAction,
  http: httpAction,
  remote_control: remoteControlAction,
  farming_task: farmingTaskAction,
};

/** Turns one action's config into rule_actions columns, recording field errors under `prefix`. */
export function prepareRuleAction(
  action: RuleActionInput,
  deviceId: number,
  prefix: string,
  errors: FieldErrors,
): RuleActionValues | null {
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
  return PREPARE_BY_CHANNEL[action.channel](action.config ?? {}, { base, deviceId, prefix, errors });
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
