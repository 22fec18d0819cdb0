import { defineJob, type JobDefinition, type JobQueue, type RetryPolicy } from '@iot/jobs';
import { type Static, Type } from '@sinclair/typebox';

const Id = Type.Integer({ minimum: 1 });

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
  },
  { additionalProperties: false },
);
export type NotifyActionPayload = Static<typeof NotifyActionPayload>;

export interface NotifyActionJobOptions {
  timeoutMs?: number;
  retry?: RetryPolicy;
}

/**
 * `notify.action` v1: deliver one rule action. Key `<rule id>:<uplink message id>:<action id>`: the same
 * firing of the same action is delivered once, however often the rules worker hands it over.
 * Timeout 30 s: SMTP, Twilio and webhooks answer within seconds; a call hanging longer is stuck.
 * Retry 5 attempts from 2 s doubling to at most 60 s: rides out a provider hiccup of about a minute and
 * a half (2 + 4 + 8 + 16 s of waits), then the job is dead-lettered instead of alarming hours late.
 */
export function notifyActionJob(
  options: NotifyActionJobOptions = {},
): JobDefinition<typeof NotifyActionPayload> {
  return defineJob({
    name: 'notify.action',
    version: 1,
    payload: NotifyActionPayload,
    timeoutMs: options.timeoutMs ?? 30_000,
    retry: options.retry ?? { attempts: 5, delayMs: 2_000, maxDelayMs: 60_000 },
    idempotencyKey: (p) => `${p.ruleId}:${p.uplinkMessageId}:${p.actionId}`,
  });
}

export const NOTIFY_ACTION = notifyActionJob();

/** The notifier's job catalogue: every job it processes, in one list (STYLE 11). */
export const NOTIFIER_JOBS = [NOTIFY_ACTION] as const;

/** What the rules worker calls for each action of a firing: validated, deduplicated by key. */
export function enqueueNotifyAction(queue: JobQueue, payload: NotifyActionPayload) {
  return queue.enqueue(NOTIFY_ACTION, payload);
}
