/** GET /core/outbox (apps/api outbox route): the company's mail, SMS and calls, newest first. */
import type { OutboxEmailEntry } from '@iot/contracts';

export type {
  Outbox,
  OutboxEmailEntry as OutboxEmail,
  OutboxPhoneMessageEntry as OutboxPhoneMessage,
} from '@iot/contracts';
export type OutboxState = OutboxEmailEntry['state'];
