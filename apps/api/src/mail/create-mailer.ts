export { createMailer } from '@iot/notifier/mail';
