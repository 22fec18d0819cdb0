export { SmtpMailer, type SmtpMailerOptions } from '@iot/notifier/mail';
