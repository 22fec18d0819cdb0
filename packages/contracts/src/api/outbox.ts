import { type Static, Type } from 'typebox';
import { Nullable } from './common';

const OutboxState = Type.Union([Type.Literal('unsent'), Type.Literal('sent'), Type.Literal('failed')], {
  description: 'unsent: kept, no provider configured; sent: handed over; failed: refused (error)',
});

export const OutboxEmail = Type.Object({
  id: Type.Integer(),
  recipients: Type.Array(Type.String()),
  cc: Type.Array(Type.String()),
  subject: Type.String(),
  body: Type.String(),
  state: OutboxState,
  error: Nullable(Type.String()),
  sent_at: Nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
});

export const OutboxPhoneMessage = Type.Object({
  id: Type.Integer(),
  channel: Type.Union([Type.Literal('sms'), Type.Literal('voice')]),
  recipient: Type.String({ description: 'E.164' }),
  body: Type.String({ description: 'the SMS text or the message spoken on the call' }),
  voice_language: Nullable(Type.String()),
  device_id: Nullable(Type.Integer()),
  device_name: Nullable(Type.String()),
  rule_id: Nullable(Type.Integer()),
  rule_name: Nullable(Type.String()),
  reference: Nullable(Type.String({ description: 'Twilio SID once sent' })),
  state: OutboxState,
  error: Nullable(Type.String()),
  sent_at: Nullable(Type.String({ format: 'date-time' })),
  created_at: Type.String({ format: 'date-time' }),
});

export const OutboxPayload = Type.Object({
  emails: Type.Array(OutboxEmail),
  phone_messages: Type.Array(OutboxPhoneMessage),
});
export type OutboxEmailEntry = Static<typeof OutboxEmail>;
export type OutboxPhoneMessageEntry = Static<typeof OutboxPhoneMessage>;
export type Outbox = Static<typeof OutboxPayload>;
