export { OutboxMailer } from '@iot/notifier/mail';
