/**
 * SMS and calls as the platform kept or handed them over (outbox_phone_messages, migration 0008): unsent
 * without Twilio, sent with its SID, or failed with the error. The notifier's SMS and voice channels
 * write it; GET /core/outbox reads it.
 */
import type { Queryable } from '../db';

export interface PhoneMessageEntry {
  channel: 'sms' | 'voice';
  /** E.164. */
  recipient: string;
  body: string;
  voiceLanguage: string | null;
  deviceId: number | null;
  ruleId: number | null;
  idempotencyKey: string;
  reference: string | null;
  sentAt: Date | null;
  error: string | null;
}

export interface PhoneMessageRecord {
  id: number;
  channel: 'sms' | 'voice';
  recipient: string;
  body: string;
  voiceLanguage: string | null;
  deviceId: number | null;
  deviceName: string | null;
  ruleId: number | null;
  ruleName: string | null;
  reference: string | null;
  sentAt: Date | null;
  error: string | null;
  createdAt: Date;
}

/**
 * Writes an SMS or call of `companyId`. Keyed by the job's idempotency key, channel and number, so a job
 * that runs again updates its row rather than listing the message twice. Returns the row id.
 */
export async function savePhoneMessage(
  q: Queryable,
  companyId: number,
  entry: PhoneMessageEntry,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO outbox_phone_messages (company_id, channel, recipient, body, voice_language, device_id,
                                        rule_id, idempotency_key, reference, sent_at, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (idempotency_key, channel, recipient) DO UPDATE
       SET body = EXCLUDED.body, reference = EXCLUDED.reference, sent_at = EXCLUDED.sent_at,
           error = EXCLUDED.error
     RETURNING id`,
    [
      companyId,
      entry.channel,
      entry.recipient,
      entry.body,
      entry.voiceLanguage,
      entry.deviceId,
      entry.ruleId,
      entry.idempotencyKey,
      entry.reference,
      entry.sentAt,
      entry.error,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('outbox_phone_messages: no row written');
  return Number(id);
}

/** The company's SMS and calls, newest first, with the names of their device and rule. */
export async function listPhoneMessages(
  q: Queryable,
  companyId: number,
  limit: number,
): Promise<PhoneMessageRecord[]> {
  const { rows } = await q.query<{
    id: number;
    channel: 'sms' | 'voice';
    recipient: string;
    body: string;
    voice_language: string | null;
    device_id: number | null;
    device_name: string | null;
    rule_id: number | null;
    rule_name: string | null;
    reference: string | null;
    sent_at: Date | null;
    error: string | null;
    created_at: Date;
  }>(
    `SELECT p.id::int AS id, p.channel, p.recipient, p.body, p.voice_language, p.device_id::int AS device_id,
            d.name AS device_name, p.rule_id::int AS rule_id, r.name AS rule_name, p.reference, p.sent_at,
            p.error, p.created_at
       FROM outbox_phone_messages p
       LEFT JOIN devices d ON d.id = p.device_id AND d.company_id = p.company_id
       LEFT JOIN rules r ON r.id = p.rule_id AND r.company_id = p.company_id
      WHERE p.company_id = $1
      ORDER BY p.created_at DESC, p.id DESC
      LIMIT $2`,
    [companyId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    recipient: r.recipient,
    body: r.body,
    voiceLanguage: r.voice_language,
    deviceId: r.device_id,
    deviceName: r.device_name,
    ruleId: r.rule_id,
    ruleName: r.rule_name,
    reference: r.reference,
    sentAt: r.sent_at,
    error: r.error,
    createdAt: r.created_at,
  }));
}
