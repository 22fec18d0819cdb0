/**
 * GET /core/outbox: what the platform kept or handed over for the acting company, newest first: mail
 * (outbox_emails: unsent without SMTP, sent or failed with it) and SMS and calls (outbox_phone_messages:
 * unsent without Twilio, sent with the SID, or failed). Without a mail or SMS provider, as in the embedded
 * default, this is where an operator reads what the rules would have sent.
 *
 * Mail addressed to another user of the company than the reader (a password reset link, an alarm mail to a
 * colleague's own address) is left out: an admin must not be able to read another user's reset link here.
 */
import type { Db } from '@iot/db';
import { withTenant } from '@iot/db/tenant';
import type { AuthContext } from '../types';

export const OUTBOX_DEFAULT_LIMIT = 100;

export interface OutboxEmail {
  id: number;
  recipients: string[];
  cc: string[];
  subject: string;
  body: string;
  state: OutboxState;
  error: string | null;
  sent_at: string | null;
  created_at: string;
}

export interface OutboxPhoneMessage {
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
  state: OutboxState;
  error: string | null;
  sent_at: string | null;
  created_at: string;
}

/** unsent: kept because no provider is configured; sent: handed over; failed: the provider refused it. */
export type OutboxState = 'unsent' | 'sent' | 'failed';

/** A row as the database returns it: times as Date, the state not yet derived. */
type StoredRow<T> = Omit<T, 'state' | 'sent_at' | 'created_at'> & { sent_at: Date | null; created_at: Date };

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const stateOf = (sentAt: unknown, error: unknown): OutboxState =>
  sentAt !== null ? 'sent' : error !== null ? 'failed' : 'unsent';

export async function listOutbox(
  db: Db,
  auth: AuthContext,
  limit = OUTBOX_DEFAULT_LIMIT,
): Promise<{ emails: OutboxEmail[]; phone_messages: OutboxPhoneMessage[] }> {
  return withTenant(db, auth.companyId, async (tx) => {
    // As the tenant, users holds this company's users: any of their addresses but the reader's hides a mail.
    const emails = await tx.query<StoredRow<OutboxEmail>>(
      `SELECT o.id::int AS id, o.recipients, o.cc, o.subject, o.body, o.sent_at, o.error, o.created_at
         FROM outbox_emails o
        WHERE o.company_id = $1
          AND NOT EXISTS (
            SELECT 1 FROM unnest(o.recipients || o.cc) AS r(address)
             WHERE lower(r.address) IN (SELECT lower(u.email) FROM users u WHERE u.id <> $2))
        ORDER BY o.created_at DESC, o.id DESC
        LIMIT $3`,
      [auth.companyId, auth.user.id, limit],
    );
    const phones = await tx.query<StoredRow<OutboxPhoneMessage>>(
      `SELECT p.id::int AS id, p.channel, p.recipient, p.body, p.voice_language, p.device_id::int AS device_id,
              d.name AS device_name, p.rule_id::int AS rule_id, r.name AS rule_name, p.reference, p.sent_at,
              p.error, p.created_at
         FROM outbox_phone_messages p
         LEFT JOIN devices d ON d.id = p.device_id AND d.company_id = p.company_id
         LEFT JOIN rules r ON r.id = p.rule_id AND r.company_id = p.company_id
        WHERE p.company_id = $1
        ORDER BY p.created_at DESC, p.id DESC
        LIMIT $2`,
      [auth.companyId, limit],
    );
    return {
      emails: emails.rows.map((row) => ({
        ...row,
        state: stateOf(row.sent_at, row.error),
        sent_at: iso(row.sent_at),
        created_at: iso(row.created_at) ?? '',
      })),
      phone_messages: phones.rows.map((row) => ({
        ...row,
        state: stateOf(row.sent_at, row.error),
        sent_at: iso(row.sent_at),
        created_at: iso(row.created_at) ?? '',
      })),
    };
  });
}
