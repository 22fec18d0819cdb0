import type { Db } from '@iot/db';
import { classifyTwilioError, type TwilioClient, toE164 } from '@iot/delivery';
import type { ActionContext, NotificationChannel } from '../context';
import { fillPlaceholders } from '../placeholders';
import { recordPhoneMessage } from './phone-outbox';

/** SMS action (spec section 3): the body, to one phone number. */
export interface SmsConfig {
  to: string;
  body: string;
}

/**
 * Sends through Twilio when an account and sender are configured. Without them (the embedded default) the
 * SMS is kept in the phone outbox the console shows, like mail without SMTP, and counts as queued rather
 * than failed. Either way the outbox records it.
 */
export function createSmsChannel(
  client: TwilioClient | undefined,
  from: string | undefined,
  db: Db,
): NotificationChannel<SmsConfig> {
  return {
    kind: 'sms',
    async send(ctx: ActionContext, config: SmsConfig) {
      const message = {
        channel: 'sms',
        recipient: toE164(config.to),
        body: fillPlaceholders(config.body, ctx),
      } as const;
      if (!client || !from) {
        const id = await recordPhoneMessage(db, ctx, message);
        return { recipient: message.recipient, status: 'queued', details: { via: 'outbox', outboxId: id } };
      }
      const sent = await client.messages
        .create({ to: message.recipient, from, body: message.body })
        .catch(async (error: unknown) => {
          const classified = classifyTwilioError(error);
          await recordPhoneMessage(db, ctx, message, { error: classified.message });
          throw classified;
        });
      await recordPhoneMessage(db, ctx, message, { sentAt: new Date(), reference: sent.sid });
      return {
        recipient: message.recipient,
        status: 'sent',
        reference: sent.sid,
        details: { via: 'twilio' },
      };
    },
  };
}
