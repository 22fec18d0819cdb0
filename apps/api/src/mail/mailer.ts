/**
 * The email channel: one interface, two implementations (SMTP through nodemailer when SMTP_URL is set,
 * else the outbox table the console shows). The notifier can take this channel over as it is.
 */
export interface MailMessage {
  to: string | string[];
  cc?: string[];
  subject: string;
  text: string;
  /** The tenant the mail belongs to, so the outbox can show each company only its own mail. */
  companyId?: number | null;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function recipients(to: string | string[]): string[] {
  return Array.isArray(to) ? to : [to];
}
