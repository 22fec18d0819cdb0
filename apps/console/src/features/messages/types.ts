import type { MessageResponse } from '@iot/contracts';
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

/** What an `action_failed` message says (migration 0024): a rule action the notifier gave up on. */
export interface ActionFailedParams {
  action_id: number;
  rule: string | null;
  device: string | null;
  channel: 'email' | 'sms' | 'voice_message' | 'http' | 'remote_control' | 'farming_task';
  /** Addresses, a number, a URL, or for remote control the target device's name. */
  recipient: string;
  command: string | null;
  error: string | null;
  attempts: number | null;
}

/** What a `login_failures` message says: repeated failed sign-ins to the reader's account (issue #28). */
export interface LoginFailuresParams {
  failures: number;
  addresses: number;
  minutes: number;
}

/** What a `codec_suspended` message says: ingest suspended a codec that kept overrunning (issue #28). */
export interface CodecSuspendedParams {
  codec_id: number;
  codec: string;
  device: string | null;
  error: string;
  code: number;
}

/** One message of GET /core/messages (apps/api messages route). */
export type Message = MessageFields &
  (
    | { kind: 'downlink_failed'; params: DownlinkFailedParams }
    | { kind: 'action_failed'; params: ActionFailedParams }
    | { kind: 'login_failures'; params: LoginFailuresParams }
    | { kind: 'codec_suspended'; params: CodecSuspendedParams }
    /** Support asks for access to a company that requires consent (issue #27). */
    | { kind: 'support_access_requested'; params: { requester: string } }
    /** A rule's system action, worded by the rule. */
    | { kind: null; params: null }
  );

/** The fields every message has; `kind` and `params` the console reads as the union above. */
type MessageFields = Omit<MessageResponse, 'kind' | 'params'>;

export interface MessageList extends MessageCounts {
  messages: Message[];
}

/** Answer of PUT and DELETE /core/messages/{id}: the counts after the change. */
export interface MessageChange extends MessageCounts {
  id: number;
}
