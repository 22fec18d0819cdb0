import type { Queryable } from '@iot/db/db';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';
import { recipients } from './mailer';
import { recordOutboxEmail } from './outbox';

export interface SmtpMailerOptions {
  /** smtp://user:pass@host:port or smtps://... */
  url: string;
  from: string;
  /** Where each sent or failed mail is recorded (outbox_emails with sent_at or error). */
  db: Queryable;
}

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpMailerOptions) {
    this.transport = nodemailer.createTransport(options.url);
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.options.from,
        to: recipients(message.to),
        ...(message.cc && message.cc.length > 0 ? { cc: message.cc } : {}),
        subject: message.subject,
        text: message.text,
      });
    } catch (err) {
      await recordOutboxEmail(this.options.db, message, { error: (err as Error).message });
      throw err;
    }
    await recordOutboxEmail(this.options.db, message, { sentAt: new Date() });
  }

  close(): void {
    this.transport.close();
  }
}
