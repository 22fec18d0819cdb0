import type { Queryable } from '@iot/db/db';
import { type MailMessage, recipients } from './mailer';

export interface OutboxRecord {
  sentAt?: Date | null;
  error?: string | null;
}

/** Writes a mail into outbox_emails: unsent (no SMTP), sent (sent_at) or failed (error). */
export async function recordOutboxEmail(
  q: Queryable,
  message: MailMessage,
  state: OutboxRecord = {},
): Promise<void> {
  await q.query(
    `INSERT INTO outbox_emails (company_id, recipients, cc, subject, body, sent_at, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      message.companyId ?? null,
      recipients(message.to),
      message.cc ?? [],
      message.subject,
      message.text,
      state.sentAt ?? null,
      state.error ?? null,
    ],
  );
}
