import type { Queryable } from '@iot/db/db';
// The coalescer alone: the mail entry point stays free of the queue adapters (the API imports it).
import { coalesce } from '@iot/runtime';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, MailMessage, MailResult } from './mailer';
import { recipients } from './mailer';
import { type OutboxRecord, recordOutboxEmails } from './outbox';

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:port or smtps://... */
  url: string;
  from: string;
  /** Where each sent or failed mail is recorded (outbox_emails with sent_at or error). */
  db: Queryable;
  /** Socket and greeting timeouts (nodemailer's defaults wait minutes). */
  timeoutMs?: number;
  /**
   * SMTP connections kept open and reused (nodemailer's pool; default 5). Without a pool every mail
   * pays connect, greeting and EHLO; the notifier passes SMTP_POOL_CONNECTIONS.
   */
  maxConnections?: number;
}

/**
 * nodemailer decides between a single-use and a pooled transport from the URL alone when one is given
 * (a `pool: true` beside `url` is ignored), so the pool settings go into its query, unless SMTP_URL
 * sets them itself. A pooled connection is replaced after 1000 mails (nodemailer's default is 100).
 */
function pooledUrl(url: string, maxConnections: number): string {
  const parsed = new URL(url);
  const defaults = { pool: 'true', maxConnections: String(maxConnections), maxMessages: '1000' };
  for (const [key, value] of Object.entries(defaults))
    if (!parsed.searchParams.has(key)) parsed.searchParams.set(key, value);
  return parsed.toString();
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  /** Outbox rows of mails finishing at once go in one statement. */
  private readonly record: (entry: { message: MailMessage; state: OutboxRecord }) => Promise<void>;

  constructor(private readonly options: SmtpMailerOptions) {
    const timeout = options.timeoutMs;
    this.transport = nodemailer.createTransport({
      url: pooledUrl(options.url, options.maxConnections ?? 5),
      ...(timeout === undefined
        ? {}
        : { connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout }),
    });
    this.record = coalesce(async (entries) => {
      await recordOutboxEmails(options.db, entries);
      return entries.map(() => undefined);
    });
  }

  async send(message: MailMessage): Promise<MailResult> {
    let messageId: string;
    try {
      const info = await this.transport.sendMail({
        from: this.options.from,
        to: recipients(message.to),
        ...(message.cc && message.cc.length > 0 ? { cc: message.cc } : {}),
        subject: message.subject,
        text: message.text,
        ...(message.messageId ? { messageId: message.messageId } : {}),
      });
      messageId = String(info.messageId);
    } catch (err) {
      await this.record({ message, state: { error: (err as Error).message } });
      throw err;
    }
    await this.record({ message, state: { sentAt: new Date() } });
    return { via: 'smtp', messageId };
  }

  close(): void {
    this.transport.close();
  }
}
