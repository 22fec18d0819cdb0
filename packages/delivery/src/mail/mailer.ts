/**
 * The one email implementation of the platform: SMTP through nodemailer when SMTP_URL is set, else the
 * outbox table the console shows. The API (support form, password reset) and the notifier's email
 * channel both use it; both import it from `@iot/delivery`.
 */
export interface MailMessage {
  to: string | string[];
  cc?: string[];
  subject: string;
  text: string;
  /** The tenant the mail belongs to, so the outbox can show each company only its own mail. */
  companyId?: number | null;
  /**
   * Message-ID header (`<id@host>`). The notifier derives it from the job's idempotency key, so a mail
   * that does go out twice (a crash between the SMTP answer and the job's bookkeeping) carries the same
   * id both times and mail clients show it once.
   */
  messageId?: string;
}

export interface MailResult {
  /** `smtp`: handed to the SMTP server; `outbox`: kept in outbox_emails because no SMTP is configured. */
  via: 'smtp' | 'outbox';
  messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<MailResult>;
}

export function recipients(to: string | string[]): string[] {
  return Array.isArray(to) ? to : [to];
}
