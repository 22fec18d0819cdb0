import { type Db, withTenant } from '@iot/db';
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
  const { rows } = await withTenant(db, ctx.company.id, (tx) =>
    tx.query<{ id: number }>(
      `INSERT INTO outbox_phone_messages (company_id, channel, recipient, body, voice_language, device_id,
                                          rule_id, idempotency_key, reference, sent_at, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (idempotency_key, channel, recipient) DO UPDATE
         SET body = EXCLUDED.body, reference = EXCLUDED.reference, sent_at = EXCLUDED.sent_at,
             error = EXCLUDED.error
       RETURNING id`,
      [
        ctx.company.id,
        message.channel,
        message.recipient,
        message.body,
        message.voiceLanguage ?? null,
        ctx.device.id,
        ctx.rule?.id ?? null,
        ctx.idempotencyKey,
        state.reference ?? null,
        state.sentAt ?? null,
        state.error ?? null,
      ],
    ),
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('outbox_phone_messages: no row written');
  return Number(id);
}
