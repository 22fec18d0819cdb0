import { type InterfaceLanguage, RULE_ACTION_DEFAULTS, userLanguage, voiceTextLanguage } from '@iot/domain';
import type { Delivery as ChannelDelivery } from './channels/channels';
import { DEFAULT_VOICE_LANGUAGE } from './channels/voice-channel';
import { PermanentDeliveryError } from './context';
import type { RuleActionRow } from './load-action';

/** A send with the language its platform words and `{field}` are in. */
export type Delivery = ChannelDelivery & { language: InterfaceLanguage };

/** Who reads in which language: users their locale, any other address or number the company's language. */
export interface RecipientLanguages {
  company: InterfaceLanguage;
  /** Locale per recipient that is a user (lower-case address, or phone number). */
  locales: Readonly<Record<string, string>>;
}

export function languageOf(recipient: string, languages: RecipientLanguages): InterfaceLanguage {
  const locale = languages.locales[recipient.toLowerCase()] ?? languages.locales[recipient];
  return locale === undefined ? languages.company : userLanguage(locale, languages.company);
}

/** Email recipients grouped by language, in the order of the first address of each language. */
function byLanguage(recipients: readonly string[], languages: RecipientLanguages) {
  const groups = new Map<InterfaceLanguage, string[]>();
  for (const to of recipients) {
    const language = languageOf(to, languages);
    groups.set(language, [...(groups.get(language) ?? []), to]);
  }
  return [...groups];
}

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

function blankToNull(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === '' ? null : value;
}

/**
 * Turns a rule action row into its sends: one email per language to its recipients (cc with the first),
 * one SMS or call per phone number, one system message, one webhook call, one downlink, one farming task.
 * A subject or text the rule left blank is the platform's, in the delivery's language.
 */
export function planDeliveries(action: RuleActionRow, languages: RecipientLanguages): Delivery[] {
  const company = languages.company;
  switch (action.type) {
    case 'email':
      return byLanguage(action.recipients, languages).map(([language, to], i) => ({
        kind: 'email' as const,
        language,
        recipient: to.join(', '),
        config: {
          to,
          cc: i === 0 ? action.cc : [],
          subject: text(action.subject, RULE_ACTION_DEFAULTS[language].emailSubject),
          body: text(action.body, RULE_ACTION_DEFAULTS[language].emailBody),
        },
      }));
    case 'sms':
      return action.recipients.map((to) => {
        const language = languageOf(to, languages);
        return {
          kind: 'sms' as const,
          language,
          recipient: to,
          config: { to, body: text(action.body, RULE_ACTION_DEFAULTS[language].smsBody) },
        };
      });
    case 'voice_message': {
      // A call speaks its voice language, whoever answers.
      const voice = text(action.voice_language, DEFAULT_VOICE_LANGUAGE);
      const language = voiceTextLanguage(voice);
      return action.recipients.map((to) => ({
        kind: 'voice_message' as const,
        language,
        recipient: to,
        config: {
          to,
          message: text(action.body, RULE_ACTION_DEFAULTS[language].voiceMessage),
          language: voice,
        },
      }));
    }
    case 'system': {
      const level = action.settings.level;
      return [
        {
          kind: 'system',
          language: company,
          recipient: 'system',
          config: {
            subject: blankToNull(action.subject),
            body: blankToNull(action.body),
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
          language: company,
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
          language: company,
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
          language: company,
          recipient: 'farming_task',
          config: {
            title: text(action.subject, RULE_ACTION_DEFAULTS[company].taskTitle),
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
