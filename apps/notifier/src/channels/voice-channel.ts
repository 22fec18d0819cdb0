import twilio from 'twilio';
import {
  type ActionContext,
  ChannelNotConfiguredError,
  type NotificationChannel,
  PermanentDeliveryError,
} from '../context';
import { fillPlaceholders } from '../placeholders';
import { toE164 } from './phone-number';
import { classifyTwilioError, type TwilioClient } from './twilio-client';

/** Voice action (spec section 3): a spoken message in the chosen voice language. */
export interface VoiceConfig {
  to: string;
  message: string;
  /** BCP 47 tag Twilio's <Say> takes, e.g. de-DE, en-US, fr-FR. */
  language: string;
}

export const DEFAULT_VOICE_LANGUAGE = 'de-DE';
export const DEFAULT_VOICE_MESSAGE = 'Alarm {rule}: {device}, {field} {value} {unit}';
const LANGUAGE = /^[a-z]{2,3}-[A-Z]{2}$/;

/** The TwiML of the call: the message spoken once in the language, then hang up. */
export function buildVoiceTwiml(message: string, language: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say({ language: language as 'de-DE' }, message);
  return response.toString();
}

export function createVoiceChannel(
  client: TwilioClient | undefined,
  from: string | undefined,
): NotificationChannel<VoiceConfig> {
  return {
    kind: 'voice_message',
    async send(ctx: ActionContext, config: VoiceConfig) {
      const to = toE164(config.to);
      if (!LANGUAGE.test(config.language)) {
        throw new PermanentDeliveryError(`invalid voice language ${JSON.stringify(config.language)}`);
      }
      if (!client || !from) {
        throw new ChannelNotConfiguredError('voice calls need TWILIO_ACCOUNT_SID, _AUTH_TOKEN, _FROM');
      }
      const twiml = buildVoiceTwiml(fillPlaceholders(config.message, ctx), config.language);
      const call = await client.calls.create({ to, from, twiml }).catch((error: unknown) => {
        throw classifyTwilioError(error);
      });
      return { recipient: to, status: 'sent', reference: call.sid, details: { language: config.language } };
    },
  };
}
