import { useTranslation } from 'react-i18next';
import { downlinkErrorText } from '../../../lib/downlink-error';
import { formatDateTime } from '../../../lib/format';
import type { Message } from '../types';

/**
 * The subject and body a reader sees. A rule's system message is shown as the rule worded it; the
 * platform's own messages (`kind`, migration 0023) are worded here in the reader's language from their
 * parameters, with the stored English text as the fallback for a kind this console does not know.
 */
export function useMessageText(): (message: Message) => { subject: string; body: string } {
  const { t, i18n } = useTranslation();
  return (message) => {
    if (message.kind === 'downlink_failed' && message.params) {
      const p = message.params;
      const command = t(`rules.commands.${p.command as 'reboot'}`, p.command);
      const sent = p.sent_at ? formatDateTime(p.sent_at, i18n.language) : '–';
      return {
        subject: t('messages.kind.downlink_failed.subject', { device: p.device }),
        body: t(
          p.by_rule ? 'messages.kind.downlink_failed.body-rule' : 'messages.kind.downlink_failed.body',
          {
            command,
            sent,
            error: p.error ? downlinkErrorText(p.error, t, i18n.language) : '–',
          },
        ),
      };
    }
    return { subject: message.subject, body: message.body };
  };
}
