import { type Static, Type } from 'typebox';
import { Nullable } from './common';

export const MessagePayload = Type.Object({
  id: Type.Integer(),
  user_id: Nullable(Type.Integer({ description: 'null: for every user of the company' })),
  subject: Type.String(),
  body: Type.String(),
  level: Type.Integer(),
  is_read: Type.Boolean(),
  read_at: Nullable(Type.String({ format: 'date-time' })),
  device_id: Nullable(Type.Integer()),
  rule_id: Nullable(Type.Integer()),
  kind: Nullable(
    Type.String({
      description:
        "null: a rule's system action (subject and body as the rule wrote them). downlink_failed: the platform's " +
        'own message that a command queued at a LoRaWAN network server failed or got no report in time ' +
        '(DOWNLINK_ACK_TIMEOUT_HOURS). action_failed: a rule action the notifier gave up on after its retries ' +
        '(one unread message per action at a time); login_failures, codec_suspended, support_access_requested, ' +
        'water_year_80, water_year_100, water_hour_cap, rule_alarm (SERVER_TEXTS of @iot/domain). Subject and ' +
        "body of these are worded in the reader's language (the user's locale); params lets a client word it itself",
    }),
  ),
  params: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        'downlink_failed: downlink_id, device (name), command, error, sent_at, by_rule (sent by a rule action). ' +
        'action_failed: action_id, rule (name), device (name), channel, recipient (the target device name for ' +
        'remote_control), command (remote_control), error, attempts',
    }),
  ),
  created_at: Type.String({ format: 'date-time' }),
});

const Counts = { read: Type.Integer(), unread: Type.Integer() };

export const MessagesQuery = Type.Object({
  show_read: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
});

export const MessageListPayload = Type.Object({ messages: Type.Array(MessagePayload), ...Counts });

/** A read or delete answers the counts after it. */
export const MessageCountsPayload = Type.Object({ id: Type.Integer(), ...Counts });

export type MessageResponse = Static<typeof MessagePayload>;
export type MessageListResponse = Static<typeof MessageListPayload>;
export type MessageCountsResponse = Static<typeof MessageCountsPayload>;
