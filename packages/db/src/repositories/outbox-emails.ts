/**
 * Mail as the platform kept or handed it over (outbox_emails): unsent (no SMTP configured), sent
 * (sent_at) or failed (error). The mailers of @iot/delivery write it; GET /core/outbox reads it.
 */
import type { Queryable } from '../db';

export interface OutboxEmailEntry {
  companyId: number | null;
  recipients: string[];
  cc: string[];
  subject: string;
  body: string;
  sentAt: Date | null;
  error: string | null;
}

export interface OutboxEmailRecord {
  id: number;
  recipients: string[];
  cc: string[];
  subject: string;
  body: string;
  sentAt: Date | null;
  error: string | null;
  createdAt: Date;
}

/** JSON for a jsonb parameter: jsonb refuses \u0000, which a provider's error text may carry. */
function jsonParam(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1');
}

export async function insertOutboxEmail(q: Queryable, entry: OutboxEmailEntry): Promise<void> {
  await q.query(
    `INSERT INTO outbox_emails (company_id, recipients, cc, subject, body, sent_at, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [entry.companyId, entry.recipients, entry.cc, entry.subject, entry.body, entry.sentAt, entry.error],
  );
}

/** Many outbox rows in one statement (the SMTP mailer's coalesced records). */
export async function insertOutboxEmails(q: Queryable, entries: readonly OutboxEmailEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await q.query(
    `INSERT INTO outbox_emails (company_id, recipients, cc, subject, body, sent_at, error)
     SELECT e.company_id, e.recipients, e.cc, e.subject, e.body, e.sent_at, e.error
       FROM jsonb_to_recordset($1::jsonb) AS e(company_id bigint, recipients text[], cc text[], subject text,
            body text, sent_at timestamptz, error text)`,
    [
      jsonParam(
        entries.map((entry) => ({
          company_id: entry.companyId,
          recipients: entry.recipients,
          cc: entry.cc,
          subject: entry.subject,
          body: entry.body,
          sent_at: entry.sentAt?.toISOString() ?? null,
          error: entry.error,
        })),
      ),
    ],
  );
}

/**
 * The company's mail, newest first, as `readerId` may see it. Run as the tenant: `users` then holds this
 * company's users, and mail to any of their addresses but the reader's is left out (an admin must not
 * read another user's password reset link).
 */
export async function listOutboxEmails(
  q: Queryable,
  companyId: number,
  readerId: number,
  limit: number,
): Promise<OutboxEmailRecord[]> {
  const { rows } = await q.query<{
    id: number;
    recipients: string[];
    cc: string[];
    subject: string;
    body: string;
    sent_at: Date | null;
    error: string | null;
    created_at: Date;
  }>(
    `SELECT o.id::int AS id, o.recipients, o.cc, o.subject, o.body, o.sent_at, o.error, o.created_at
       FROM outbox_emails o
      WHERE o.company_id = $1
        AND NOT EXISTS (
          SELECT 1 FROM unnest(o.recipients || o.cc) AS r(address)
           WHERE lower(r.address) IN (SELECT lower(u.email) FROM users u WHERE u.id <> $2))
      ORDER BY o.created_at DESC, o.id DESC
      LIMIT $3`,
    [companyId, readerId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    recipients: r.recipients,
    cc: r.cc,
    subject: r.subject,
    body: r.body,
    sentAt: r.sent_at,
    error: r.error,
    createdAt: r.created_at,
  }));
}
