import type { Db } from '@iot/db';
import { classifyTwilioError, type TwilioClient, toE164 } from '@iot/delivery';
import twilio from 'twilio';
import { type ActionContext, type NotificationChannel, PermanentDeliveryError } from '../context';
import { fillPlaceholders } from '../placeholders';
import { recordPhoneMessage } from './phone-outbox';

/** Voice action (spec section 3): a spoken message in the chosen voice language. */
export interface VoiceConfig {
  to: string;
  message: string;
  /** BCP 47 tag Twilio's <Say> takes, e.g. de-DE, en-US, fr-FR. */
  language: string;
}

export const DEFAULT_VOICE_LANGUAGE = 'de-DE';
const LANGUAGE = /^[a-z]{2,3}-[A-Z]{2}$/;

/** The TwiML of the call: the message spoken once in the language, then hang up. */
export function buildVoiceTwiml(message: string, language: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say({ language: language as 'de-DE' }, message);
  return response.toString();
}

/**
 * Calls through Twilio when an account and caller number are configured. Without them (the embedded
 * default) the call is kept in the phone outbox the console shows, with the message it would speak, and
 * counts as queued rather than failed. Either way the outbox records it.
 */
export function createVoiceChannel(
  client: TwilioClient | undefined,
  from: string | undefined,
  db: Db,
): NotificationChannel<VoiceConfig> {
  return {
    kind: 'voice_message',
    async send(ctx: ActionContext, config: VoiceConfig) {
      const to = toE164(config.to);
      if (!LANGUAGE.test(config.language)) {
        throw new PermanentDeliveryError(`invalid voice language ${JSON.stringify(config.language)}`);
      }
      const message = {
        channel: 'voice',
        recipient: to,
        body: fillPlaceholders(config.message, ctx),
        voiceLanguage: config.language,
      } as const;
      const details = { language: config.language };
      if (!client || !from) {
        const id = await recordPhoneMessage(db, ctx, message);
        return { recipient: to, status: 'queued', details: { ...details, via: 'outbox', outboxId: id } };
      }
      const twiml = buildVoiceTwiml(message.body, config.language);
      const call = await client.calls.create({ to, from, twiml }).catch(async (error: unknown) => {
        const classified = classifyTwilioError(error);
        await recordPhoneMessage(db, ctx, message, { error: classified.message });
        throw classified;
      });
      await recordPhoneMessage(db, ctx, message, { sentAt: new Date(), reference: call.sid });
      return { recipient: to, status: 'sent', reference: call.sid, details: { ...details, via: 'twilio' } };
    },
  };
}
