export { type OutboxRecord, recordOutboxEmail } from '@iot/notifier/mail';
