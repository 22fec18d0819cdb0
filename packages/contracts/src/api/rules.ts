import { type Static, Type } from 'typebox';
import { Nullable } from './common';

/**
 * Loose where the domain judges: trigger, operator and channel are any text so that an unknown one is the
 * catalogue's 78 (or a field error) rather than a schema failure; configs are objects checked per channel.
 */
const NullNumber = Type.Unsafe<number | null>({ type: ['number', 'null'] });

const NullInteger = (extra: Record<string, unknown> = {}) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], ...extra });

export const RuleActionInput = Type.Object(
  {
    channel: Type.String({
      maxLength: 40,
      description: 'email | sms | voice_message | system | http | remote_control | farming_task',
    }),
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          "email {recipient, cc, subject, body}; sms {phone (text or list), body}; voice_message {phone, message, language}; system {subject, text, level?}; http {method, url, headers, body}; remote_control {command, params, target_device_id?}; farming_task {title, notes?, task_type, field_ids? (none: the device's field), due_in_hours?, assignee_user_id?} (farming licence)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const RuleInput = Type.Object(
  {
    id: Type.Optional(Type.Integer({ minimum: 1, description: 'absent: a new rule' })),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    trigger: Type.String({ maxLength: 20, description: 'data | click | no_data' }),
    data_field: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        maxLength: 300,
        description: 'also virtual.<uuid>.<name>',
      }),
    ),
    operator: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        maxLength: 10,
        description: 'lte gte eq in out rie fae',
      }),
    ),
    value: Type.Optional(NullNumber),
    range_min: Type.Optional(NullNumber),
    range_max: Type.Optional(NullNumber),
    time_window_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 31_536_000 })),
    schedule: Type.Optional(
      Type.Unsafe<{ start?: string | null; end?: string | null; weekdays?: number[] } | null>({
        type: ['object', 'null'],
        properties: {
          start: { type: ['string', 'null'], maxLength: 8, description: 'HH:MM[:SS], before end' },
          end: { type: ['string', 'null'], maxLength: 8 },
          weekdays: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 7 }, maxItems: 7 },
        },
        additionalProperties: false,
      }),
    ),
    max_actions: Type.Optional(NullInteger({ minimum: 1 })),
    max_actions_period_seconds: Type.Optional(NullInteger({ minimum: 1 })),
    click_type: Type.Optional(NullInteger({ description: 'single 1, double 2, long 4' })),
    max_clicks: Type.Optional(NullInteger()),
    is_active: Type.Optional(Type.Boolean()),
    actions: Type.Optional(Type.Array(RuleActionInput, { maxItems: 20 })),
  },
  { additionalProperties: false },
);

export const RulePayload = Type.Object({
  id: Type.Integer(),
  device_id: Type.Integer(),
  name: Type.String(),
  is_active: Type.Boolean(),
  trigger: Type.String(),
  data_field: Nullable(Type.String()),
  operator: Nullable(Type.String()),
  value: Nullable(Type.Number()),
  range_min: Nullable(Type.Number()),
  range_max: Nullable(Type.Number()),
  time_window_seconds: Type.Integer(),
  schedule: Nullable(
    Type.Object({
      start: Nullable(Type.String()),
      end: Nullable(Type.String()),
      weekdays: Type.Array(Type.Integer()),
    }),
  ),
  max_actions: Nullable(Type.Integer()),
  max_actions_period_seconds: Nullable(Type.Integer()),
  click_type: Nullable(Type.Integer()),
  max_clicks: Nullable(Type.Integer()),
  last_fired_at: Nullable(Type.String({ format: 'date-time' })),
  actions: Type.Array(
    Type.Object({
      id: Type.Integer(),
      channel: Type.String(),
      config: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
});

export const RuleParams = Type.Object({
  device_id: Type.Integer({ minimum: 1 }),
  rule_id: Type.Integer({ minimum: 1 }),
});

export type Rule = Static<typeof RulePayload>;
