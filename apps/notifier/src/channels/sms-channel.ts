import { type ActionContext, ChannelNotConfiguredError, type NotificationChannel } from '../context';
import { fillPlaceholders } from '../placeholders';
import { toE164 } from './phone-number';
import { classifyTwilioError, type TwilioClient } from './twilio-client';

/** SMS action (spec section 3): the body, to one phone number. */
export interface SmsConfig {
  to: string;
  body: string;
}

export const DEFAULT_SMS_BODY = '{device}: {field} {value} {unit} ({time})';

export function createSmsChannel(
  client: TwilioClient | undefined,
  from: string | undefined,
): NotificationChannel<SmsConfig> {
  return {
    kind: 'sms',
    async send(ctx: ActionContext, config: SmsConfig) {
      const to = toE164(config.to);
      if (!client || !from)
        throw new ChannelNotConfiguredError('SMS needs TWILIO_ACCOUNT_SID, _AUTH_TOKEN, _FROM');
      const message = await client.messages
        .create({ to, from, body: fillPlaceholders(config.body, ctx) })
        .catch((error: unknown) => {
          throw classifyTwilioError(error);
        });
      return { recipient: to, status: 'sent', reference: message.sid };
    },
  };
}
