// The mail entry point (`@iot/notifier/mail`): kept free of the notifier's queue and channels so the API
// can import it without them.
export { createMailer } from './create-mailer';
export { type Mailer, type MailMessage, type MailResult, recipients } from './mailer';
export { type OutboxRecord, recordOutboxEmail, recordOutboxEmails } from './outbox';
export { OutboxMailer } from './outbox-mailer';
export { SmtpMailer, type SmtpMailerOptions, transportOptions } from './smtp-mailer';
