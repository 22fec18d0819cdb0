import type { Config } from '@iot/config';
import type { Queryable } from '@iot/db';
import type { Mailer } from './mailer';
import { OutboxMailer } from './outbox-mailer';
import { SmtpMailer } from './smtp-mailer';

/** SMTP when SMTP_URL is configured, else the outbox (spec: email kept in an outbox the console shows). */
export function createMailer(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>,
  db: Queryable,
  options: { maxConnections?: number } = {},
): Mailer {
  if (config.SMTP_URL)
    return new SmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM, db, ...options });
  return new OutboxMailer(db);
}
