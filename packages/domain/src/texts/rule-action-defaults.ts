import type { InterfaceLanguage } from '../constants/session';

/**
 * What a rule's email, SMS, call or farming task says when the rule left its subject or text blank: the
 * platform's words, in the recipient's language, with the notifier's placeholders ({device}, {field},
 * {value}, {unit}, {time}, {rule}). A blank system message is stored as the `rule_alarm` kind instead,
 * so that each reader gets their own language.
 */
export interface RuleActionDefaults {
  emailSubject: string;
  emailBody: string;
  smsBody: string;
  voiceMessage: string;
  taskTitle: string;
}

export const RULE_ACTION_DEFAULTS: Readonly<Record<InterfaceLanguage, RuleActionDefaults>> = {
  de: {
    emailSubject: '{rule}: {device}',
    emailBody: '{device}: {field} = {value} {unit} um {time} (Regel {rule})',
    smsBody: '{device}: {field} {value} {unit} ({time})',
    voiceMessage: 'Alarm {rule}: {device}, {field} {value} {unit}',
    taskTitle: '{rule}: {device}',
  },
  en: {
    emailSubject: '{rule}: {device}',
    emailBody: '{device}: {field} = {value} {unit} at {time} (rule {rule})',
    smsBody: '{device}: {field} {value} {unit} ({time})',
    voiceMessage: 'Alarm {rule}: {device}, {field} {value} {unit}',
    taskTitle: '{rule}: {device}',
  },
};

/** The interface language a call's voice language (BCP 47, `de-DE`) speaks; English for any other. */
export function voiceTextLanguage(voiceLanguage: string): InterfaceLanguage {
  return voiceLanguage.toLowerCase().startsWith('de') ? 'de' : 'en';
}
