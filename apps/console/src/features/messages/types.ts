import type { MessageCounts } from '@iot/domain';

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
  created_at: string;
}

export interface MessageList extends MessageCounts {
  messages: Message[];
}

/** Answer of PUT and DELETE /core/messages/{id}: the counts after the change. */
export interface MessageChange extends MessageCounts {
  id: number;
}
