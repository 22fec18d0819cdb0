import type { Queryable } from '@iot/db/db';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, MailMessage, MailResult } from './mailer';
import { recipients } from './mailer';
import { recordOutboxEmail } from './outbox';

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:port or smtps://... */
  url: string;
  from: string;
  /** Where each sent or failed mail is recorded (outbox_emails with sent_at or error). */
  db: Queryable;
  /** Socket and greeting timeouts (nodemailer's defaults wait minutes). */
  timeoutMs?: number;
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpMailerOptions) {
    const timeout = options.timeoutMs;
    this.transport = nodemailer.createTransport(
      timeout === undefined
        ? options.url
        : { url: options.url, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout },
    );
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
      await recordOutboxEmail(this.options.db, message, { error: (err as Error).message });
      throw err;
    }
    await recordOutboxEmail(this.options.db, message, { sentAt: new Date() });
    return { via: 'smtp', messageId };
  }

  close(): void {
    this.transport.close();
  }
}
