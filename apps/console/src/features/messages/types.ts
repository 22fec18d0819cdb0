import type { MessageCounts } from '@iot/domain';

/** What a `downlink_failed` message says (migration 0023). */
export interface DownlinkFailedParams {
  downlink_id: number;
  device: string;
  command: string;
  error: string | null;
  sent_at: string | null;
  by_rule: boolean;
}

/** One message of GET /core/messages (apps/api messages route). */
export interface Message {
  id: number;
  user_id: number | null;
  subject: string;
  body: string;
  level: number;
  is_read: boolean;
  read_at: string | null;
  device_id: number | null;
  rule_id: number | null;
  /** The platform's own message (null: a rule's system action, worded by the rule). */
  kind: 'downlink_failed' | null;
  params: DownlinkFailedParams | null;
  created_at: string;
}

export interface MessageList extends MessageCounts {
  messages: Message[];
}

/** Answer of PUT and DELETE /core/messages/{id}: the counts after the change. */
export interface MessageChange extends MessageCounts {
  id: number;
}
