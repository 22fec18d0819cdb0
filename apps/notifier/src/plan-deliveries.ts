import type { Delivery } from './channels/channels';
import { DEFAULT_EMAIL_BODY, DEFAULT_EMAIL_SUBJECT } from './channels/email-channel';
import { DEFAULT_TASK_TITLE } from './channels/farming-task-channel';
import { DEFAULT_SMS_BODY } from './channels/sms-channel';
import { DEFAULT_SYSTEM_BODY, DEFAULT_SYSTEM_SUBJECT } from './channels/system-channel';
import { DEFAULT_VOICE_LANGUAGE, DEFAULT_VOICE_MESSAGE } from './channels/voice-channel';
import { PermanentDeliveryError } from './context';
import type { RuleActionRow } from './load-action';

function text(value: string | null | undefined, fallback: string): string {
  return value === null || value === undefined || value.trim() === '' ? fallback : value;
}

function headersOf(settings: Record<string, unknown>): Record<string, string> {
  const raw = settings.headers;
  if (typeof raw !== 'object' || raw === null) return {};
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === 'string') headers[name.toLowerCase()] = value;
  }
  return headers;
}

/**
 * Turns a rule action row into its sends: one email to all recipients (cc as given), one SMS or call per
 * phone number, one system message, one webhook call, one downlink, one farming task.
 */
export function planDeliveries(action: RuleActionRow): Delivery[] {
  switch (action.type) {
    case 'email':
      return [
        {
          kind: 'email',
          recipient: action.recipients.join(', '),
          config: {
            to: action.recipients,
            cc: action.cc,
            subject: text(action.subject, DEFAULT_EMAIL_SUBJECT),
            body: text(action.body, DEFAULT_EMAIL_BODY),
          },
        },
      ];
    case 'sms':
      return action.recipients.map((to) => ({
        kind: 'sms' as const,
        recipient: to,
        config: { to, body: text(action.body, DEFAULT_SMS_BODY) },
      }));
    case 'voice_message':
      return action.recipients.map((to) => ({
        kind: 'voice_message' as const,
        recipient: to,
        config: {
          to,
          message: text(action.body, DEFAULT_VOICE_MESSAGE),
          language: text(action.voice_language, DEFAULT_VOICE_LANGUAGE),
        },
      }));
    case 'system': {
      const level = action.settings.level;
      return [
        {
          kind: 'system',
          recipient: 'system',
          config: {
            subject: text(action.subject, DEFAULT_SYSTEM_SUBJECT),
            body: text(action.body, DEFAULT_SYSTEM_BODY),
            level:
              typeof level === 'number' && Number.isInteger(level) && level >= 0 && level <= 7 ? level : 4,
          },
        },
      ];
    }
    case 'http':
      return [
        {
          kind: 'http',
          recipient: action.url ?? '',
          config: {
            method: action.http_method ?? 'POST',
            url: action.url ?? '',
            headers: headersOf(action.settings),
            body: action.body,
          },
        },
      ];
    case 'remote_control':
      if (action.target_device_id === null || action.command === null) {
        throw new PermanentDeliveryError('remote control action without target device or command');
      }
      return [
        {
          kind: 'remote_control',
          recipient: `device:${action.target_device_id}`,
          config: {
            targetDeviceId: action.target_device_id,
            command: action.command,
            params: action.command_params,
          },
        },
      ];
    case 'farming_task': {
      const s = action.settings;
      const ids = (value: unknown) =>
        Array.isArray(value) ? value.filter((v): v is number => Number.isSafeInteger(v) && v > 0) : [];
      return [
        {
          kind: 'farming_task',
          recipient: 'farming_task',
          config: {
            title: text(action.subject, DEFAULT_TASK_TITLE),
            notes: action.body,
            taskType: typeof s.task_type === 'string' ? s.task_type : 'custom',
            fieldIds: ids(s.field_ids),
            dueInHours: typeof s.due_in_hours === 'number' ? s.due_in_hours : null,
            assigneeUserId: typeof s.assignee_user_id === 'number' ? s.assignee_user_id : null,
          },
        },
      ];
    }
  }
}
