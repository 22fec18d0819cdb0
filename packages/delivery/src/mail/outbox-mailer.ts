import type { Queryable } from '@iot/db';
import type { Mailer, MailMessage, MailResult } from './mailer';
import { recordOutboxEmail } from './outbox';

/** Without an SMTP server (embedded profile) mail is kept in the outbox for the console to show. */
export class OutboxMailer implements Mailer {
  constructor(private readonly db: Queryable) {}

  async send(message: MailMessage): Promise<MailResult> {
    await recordOutboxEmail(this.db, message);
    return { via: 'outbox' };
  }
}
