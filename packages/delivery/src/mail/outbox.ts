import { insertOutboxEmail, insertOutboxEmails, type OutboxEmailEntry, type Queryable } from '@iot/db';
import { type MailMessage, recipients } from './mailer';

export interface OutboxRecord {
  sentAt?: Date | null;
  error?: string | null;
}

function entryOf(message: MailMessage, state: OutboxRecord): OutboxEmailEntry {
  return {
    companyId: message.companyId ?? null,
    recipients: recipients(message.to),
    cc: message.cc ?? [],
    subject: message.subject,
    body: message.text,
    sentAt: state.sentAt ?? null,
    error: state.error ?? null,
  };
}

/** Writes a mail into outbox_emails: unsent (no SMTP), sent (sent_at) or failed (error). */
export async function recordOutboxEmail(
  q: Queryable,
  message: MailMessage,
  state: OutboxRecord = {},
): Promise<void> {
  await insertOutboxEmail(q, entryOf(message, state));
}

/** Many outbox rows in one statement (the SMTP mailer's coalesced records). */
export async function recordOutboxEmails(
  q: Queryable,
  entries: readonly { message: MailMessage; state: OutboxRecord }[],
): Promise<void> {
  await insertOutboxEmails(
    q,
    entries.map(({ message, state }) => entryOf(message, state)),
  );
}
