import { type Db, savePhoneMessage, withTenant } from '@iot/db';
import type { ActionContext } from '../context';

/** An SMS or a call as the outbox keeps it: the text as sent (placeholders filled), to an E.164 number. */
export interface PhoneMessage {
  channel: 'sms' | 'voice';
  recipient: string;
  body: string;
  voiceLanguage?: string;
}

export interface PhoneMessageState {
  /** Twilio took it: when, and its Message or Call SID. */
  sentAt?: Date;
  reference?: string;
  /** Twilio refused it or could not be reached. */
  error?: string;
}

/**
 * Writes an SMS or call into outbox_phone_messages (migration 0008): unsent without Twilio, sent with its
 * SID, or failed with the error. Keyed by the job's idempotency key, channel and number, so a job that runs
 * again updates its row rather than listing the message twice. Runs as the tenant (row-level security).
 * Returns the row id.
 */
export async function recordPhoneMessage(
  db: Db,
  ctx: ActionContext,
  message: PhoneMessage,
  state: PhoneMessageState = {},
): Promise<number> {
  return withTenant(db, ctx.company.id, (tx) =>
    savePhoneMessage(tx, ctx.company.id, {
      channel: message.channel,
      recipient: message.recipient,
      body: message.body,
      voiceLanguage: message.voiceLanguage ?? null,
      deviceId: ctx.device.id,
      ruleId: ctx.rule?.id ?? null,
      idempotencyKey: ctx.idempotencyKey,
      reference: state.reference ?? null,
      sentAt: state.sentAt ?? null,
      error: state.error ?? null,
    }),
  );
}
