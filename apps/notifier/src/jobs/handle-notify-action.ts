import type { NotifyActionPayload } from '@iot/contracts';
import { type JobContext, JobDeferredError, PermanentJobError } from '@iot/jobs';
import { type Logger, metrics, secondsSince, stageHook } from '@iot/runtime';
import type { Channels } from '../channels/channels';
import { ChannelNotConfiguredError, type NotificationChannel, PermanentDeliveryError } from '../context';
import { type ActionLoader, fromPreloaded } from '../load-action';
import type { NotificationLogWriter } from '../notification-log';
import { type Delivery, planDeliveries } from '../plan-deliveries';
import type { ChannelLimiter } from './channel-limits';

export interface NotifyActionDeps {
  channels: Channels;
  log: Logger;
  /** Action, rule name, device, company and settled recipients of a job (createActionLoader). */
  load: ActionLoader;
  /** Writes one notification_log row (createNotificationLogWriter). */
  writeLog: NotificationLogWriter;
  /** Sends per second per channel; unset: no limit beyond the queue's. */
  limiter?: ChannelLimiter;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The notify.action processor: load the action within the payload's company, plan its sends, skip the
 * recipients this key already reached, send the rest, and log every attempt's outcome in notification_log.
 * Throws (so the job retries) while a retryable send failed; throws PermanentJobError (dead letter at
 * once) when only permanent failures remain; throws JobDeferredError before sending anything when the
 * channel's rate limit is used up (the job comes back later without using up an attempt).
 *
 * Round trips: one to load (shared with the jobs running at once), one per delivery's log row (shared
 * likewise); on a job's first run what earlier attempts delivered is not looked up (there were none),
 * and with `payload.preloaded` nothing is loaded: the send is the first thing it does.
 */
export async function handleNotifyAction(
  deps: NotifyActionDeps,
  payload: NotifyActionPayload,
  job: JobContext,
): Promise<{ sent: number; skipped: number }> {
  // Stage timestamps for the rules benchmark (@iot/runtime stage-trace.ts): one property read without it.
  const trace = stageHook();
  trace?.('nt: job started', [payload.uplinkMessageId]);
  // A first run of a job whose firing transaction read its rows (payload.preloaded) sends at once; any
  // other run loads them now (they may have changed, and earlier attempts may have settled recipients).
  const loaded =
    job.firstRun && payload.preloaded
      ? fromPreloaded(payload, payload.preloaded, job.idempotencyKey)
      : await deps.load({ payload, idempotencyKey: job.idempotencyKey, withSettled: !job.firstRun });
  if (!loaded) {
    throw new PermanentJobError(
      `action ${payload.actionId} of rule ${payload.ruleId} or device ${payload.deviceId} not found in company ${payload.companyId}, or the company is blocked or deleted, or lacks paid messaging for SMS and voice`,
    );
  }
  const { action, ctx, settled, languages } = loaded;
  const base = {
    companyId: payload.companyId,
    ruleId: payload.ruleId,
    ruleActionId: action.id,
    alarmId: payload.alarmId,
    deviceId: payload.deviceId,
    idempotencyKey: job.idempotencyKey,
  };
  let deliveries: Delivery[];
  try {
    deliveries = planDeliveries(action, languages);
  } catch (error) {
    throw new PermanentJobError(message(error));
  }
  const due = deliveries.filter((delivery) => !settled.has(delivery.recipient));
  const first = due[0];
  if (first && deps.limiter) {
    // Every delivery of an action goes through the same channel.
    const waitMs = deps.limiter.take(first.kind, due.length);
    if (waitMs > 0) {
      throw new JobDeferredError(`rate limit of channel ${first.kind} used up for ${waitMs} ms`, waitMs);
    }
  }
  const retryable: string[] = [];
  const permanent: string[] = [];
  let sent = 0;
  for (const delivery of due) {
    const attempt = { attempt: job.attempt, maxAttempts: job.maxAttempts };
    const channel = deps.channels[delivery.kind] as NotificationChannel<unknown>;
    const started = performance.now();
    try {
      const result = await channel.send({ ...ctx, language: delivery.language }, delivery.config);
      metrics.notificationSendSeconds.observe({ channel: delivery.kind }, secondsSince(started));
      metrics.notifications.inc({ channel: delivery.kind, outcome: result.status });
      trace?.('nt: send resolved (outbox row written)', [payload.uplinkMessageId]);
      sent += 1;
      await deps.writeLog({
        ...base,
        channel: delivery.kind,
        recipient: delivery.recipient,
        status: result.status,
        error: null,
        details: { ...attempt, ...result.details, reference: result.reference ?? null },
      });
    } catch (error) {
      const notConfigured = error instanceof ChannelNotConfiguredError;
      const isPermanent = error instanceof PermanentDeliveryError;
      const final = notConfigured || isPermanent || job.isLastAttempt;
      metrics.notifications.inc({
        channel: delivery.kind,
        outcome: notConfigured ? 'skipped' : final ? 'failed' : 'retrying',
      });
      if (!notConfigured) (final ? permanent : retryable).push(`${delivery.recipient}: ${message(error)}`);
      await deps.writeLog({
        ...base,
        channel: delivery.kind,
        recipient: delivery.recipient,
        status: notConfigured ? 'skipped' : 'failed',
        error: message(error),
        details: {
          ...attempt,
          final,
          permanent: isPermanent || notConfigured,
          deadLetter: final && !notConfigured,
        },
      });
      deps.log.warn(
        { key: job.idempotencyKey, channel: delivery.kind, attempt: job.attempt, error: message(error) },
        'notification delivery failed',
      );
    }
  }
  if (retryable.length > 0) throw new Error(retryable.join('; '));
  if (permanent.length > 0) throw new PermanentJobError(permanent.join('; '));
  return { sent, skipped: deliveries.length - sent };
}
