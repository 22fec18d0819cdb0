// Job payload schemas (the job definitions, with timeout and retry policy, live in @iot/jobs).
import { type Static, type TSchema, Type } from 'typebox';

const Id = Type.Integer({ minimum: 1 });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * What the notifier would load for a job before sending (load-action.ts), read by the rules worker in
 * the transaction that fired the rule (`preloadActions`, joined on the payload's company like the
 * notifier's own load). Only a job's first run uses it, so a send needs no round trip beforehand;
 * retries load the rows again.
 */
export const PreloadedAction = Type.Object(
  {
    action: Type.Object(
      {
        id: Id,
        type: Type.Union([
          Type.Literal('email'),
          Type.Literal('sms'),
          Type.Literal('voice_message'),
          Type.Literal('system'),
          Type.Literal('http'),
          Type.Literal('remote_control'),
          Type.Literal('farming_task'),
        ]),
        recipients: Type.Array(Type.String()),
        cc: Type.Array(Type.String()),
        subject: Nullable(Type.String()),
        body: Nullable(Type.String()),
        voice_language: Nullable(Type.String()),
        url: Nullable(Type.String()),
        http_method: Nullable(Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT')])),
        target_device_id: Nullable(Id),
        command: Nullable(Type.String()),
        command_params: Type.Record(Type.String(), Type.Unknown()),
        settings: Type.Record(Type.String(), Type.Unknown()),
        rule_name: Type.String(),
      },
      { additionalProperties: false },
    ),
    device: Type.Object({ uuid: Type.String(), name: Type.String() }, { additionalProperties: false }),
    company: Type.Object(
      {
        name: Type.String(),
        timeZone: Type.String(),
        /** The company's language, for recipients that are no user (absent in jobs of older versions). */
        language: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    /** Locale per recipient that is a user of the company (lower-case address or phone number). */
    recipientLocales: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);
export type PreloadedAction = Static<typeof PreloadedAction>;

/** What the rules worker hands over per action of a firing rule. */
export const NotifyActionPayload = Type.Object(
  {
    companyId: Id,
    ruleId: Id,
    actionId: Id,
    /** The device whose uplink fired the rule. */
    deviceId: Id,
    alarmId: Type.Union([Id, Type.Null()]),
    /** The uplink's message id (device_data.message_id), or a timer tick id for no-data rules. */
    uplinkMessageId: Type.String({ minLength: 1, maxLength: 200 }),
    field: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]),
    value: Type.Union([Type.Number(), Type.String({ maxLength: 200 }), Type.Boolean(), Type.Null()]),
    /** ISO time the rule fired. */
    firedAt: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T' }),
    /** The action's rows as the firing transaction read them (optional: its first run skips the load). */
    preloaded: Type.Optional(PreloadedAction),
  },
  { additionalProperties: false },
);
export type NotifyActionPayload = Static<typeof NotifyActionPayload>;

/**
 * One delivery of a water usage warning (issue #26), handed over by the rules worker's timer once it
 * claimed the warning: a mail or an SMS to one main user or admin of the association, an admin member or
 * the member, or closing one valve of the member's device shared with control (at 100 %).
 */
export const NotifyWaterPayload = Type.Union([
  Type.Object(
    {
      warningId: Id,
      channel: Type.Union([Type.Literal('email'), Type.Literal('sms')]),
      userId: Id,
      companyId: Id,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      warningId: Id,
      channel: Type.Literal('valve'),
      deviceId: Id,
      companyId: Id,
      valve: Type.Integer({ minimum: 1, maximum: 4 }),
    },
    { additionalProperties: false },
  ),
]);
export type NotifyWaterPayload = Static<typeof NotifyWaterPayload>;
