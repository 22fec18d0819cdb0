import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { downlinkErrorText } from '../../../lib/downlink-error';
import { formatDateTime } from '../../../lib/format';
import type { Message } from '../types';

/**
 * The subject and body a reader sees. A rule's system message is shown as the rule worded it; the
 * platform's own messages (`kind`: migrations 0023 and 0024, the API's login_failures, ingest's codec_suspended) are worded here in the reader's language from their
 * parameters, with the stored English text as the fallback for a kind this console does not know.
 */
export function useMessageText(): (message: Message) => { subject: string; body: string } {
  const { t, i18n } = useTranslation();
  return (message) => messageText(message, t, i18n.language);
}

/** useMessageText's wording, for a given translation function and language. */
export function messageText(
  message: Message,
  t: TFunction,
  language: string,
): { subject: string; body: string } {
  if (message.kind === 'action_failed' && message.params) {
    const p = message.params;
    const error = p.error ?? '–';
    return {
      subject: t('messages.kind.action_failed.subject', { rule: p.rule ?? '–' }),
      body:
        p.channel === 'remote_control'
          ? t('messages.kind.action_failed.body-command', {
              command: t(`rules.commands.${p.command as 'reboot'}`, p.command ?? ''),
              target: p.recipient,
              device: p.device ?? '–',
              error: downlinkErrorText(error, t, language),
            })
          : t('messages.kind.action_failed.body', {
              channel: t(`rules.channels.${p.channel}`),
              recipient: p.recipient,
              device: p.device ?? '–',
              count: p.attempts ?? 1,
              error,
            }),
    };
  }
  if (message.kind === 'downlink_failed' && message.params) {
    const p = message.params;
    const command = t(`rules.commands.${p.command as 'reboot'}`, p.command);
    const sent = p.sent_at ? formatDateTime(p.sent_at, language) : '–';
    return {
      subject: t('messages.kind.downlink_failed.subject', { device: p.device }),
      body: t(p.by_rule ? 'messages.kind.downlink_failed.body-rule' : 'messages.kind.downlink_failed.body', {
        command,
        sent,
        error: p.error ? downlinkErrorText(p.error, t, language) : '–',
      }),
    };
  }
  if (message.kind === 'login_failures' && message.params) {
    const p = message.params;
    return {
      subject: t('messages.kind.login_failures.subject'),
      body: t('messages.kind.login_failures.body', {
        count: p.failures,
        addresses: p.addresses,
        minutes: p.minutes,
      }),
    };
  }
  if (message.kind === 'codec_suspended' && message.params) {
    const p = message.params;
    return {
      subject: t('messages.kind.codec_suspended.subject', { codec: p.codec ?? '–' }),
      body: t('messages.kind.codec_suspended.body', { codec: p.codec ?? '–', device: p.device ?? '–' }),
    };
  }
  if (message.kind === 'support_access_requested' && message.params) {
    return {
      subject: t('messages.kind.support_access_requested.subject'),
      body: t('messages.kind.support_access_requested.body', { requester: message.params.requester }),
    };
  }
  return { subject: message.subject, body: message.body };
}
