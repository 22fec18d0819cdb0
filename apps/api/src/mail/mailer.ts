// The mailer moved to the notifier (one email implementation for the API and the email channel).
export { type Mailer, type MailMessage, type MailResult, recipients } from '@iot/notifier/mail';
