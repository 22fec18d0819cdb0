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

/** Many outbox rows in one statement (the SMTP mailer's coalesced records). */
export async function recordOutboxEmails(
  q: Queryable,
  entries: readonly { message: MailMessage; state: OutboxRecord }[],
): Promise<void> {
  if (entries.length === 0) return;
  await q.query(
    `INSERT INTO outbox_emails (company_id, recipients, cc, subject, body, sent_at, error)
     SELECT e.company_id, e.recipients, e.cc, e.subject, e.body, e.sent_at, e.error
       FROM jsonb_to_recordset($1::jsonb) AS e(company_id bigint, recipients text[], cc text[], subject text,
            body text, sent_at timestamptz, error text)`,
    [
      JSON.stringify(
        entries.map(({ message, state }) => ({
          company_id: message.companyId ?? null,
          recipients: recipients(message.to),
          cc: message.cc ?? [],
          subject: message.subject,
          body: message.text,
          sent_at: state.sentAt?.toISOString() ?? null,
          error: state.error ?? null,
        })),
      ).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1'),
    ],
  );
}
