/** GET /core/outbox (apps/api outbox route): the company's mail, SMS and calls, newest first. */
export type OutboxState = 'unsent' | 'sent' | 'failed';

export interface OutboxEmail {
  id: number;
  recipients: string[];
  cc: string[];
  subject: string;
  body: string;
  state: OutboxState;
  error: string | null;
  sent_at: string | null;
  created_at: string;
}

export interface OutboxPhoneMessage {
  id: number;
  channel: 'sms' | 'voice';
  recipient: string;
  body: string;
  voice_language: string | null;
  device_id: number | null;
  device_name: string | null;
  rule_id: number | null;
  rule_name: string | null;
  reference: string | null;
  state: OutboxState;
  error: string | null;
  sent_at: string | null;
  created_at: string;
}

export interface Outbox {
  emails: OutboxEmail[];
  phone_messages: OutboxPhoneMessage[];
}
