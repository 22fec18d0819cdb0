export { type BuildAppOptions, buildApp } from './app';
export { createMailer } from './mail/create-mailer';
export type { Mailer, MailMessage } from './mail/mailer';
export { OutboxMailer } from './mail/outbox-mailer';
export { SmtpMailer } from './mail/smtp-mailer';
export { requireModule, requireSession } from './plugins/guards';
export type { AuthContext } from './types';
