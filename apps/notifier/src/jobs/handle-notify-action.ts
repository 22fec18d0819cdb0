import type { Db } from '@iot/db';
import { type JobContext, PermanentJobError } from '@iot/jobs';
import type { Logger } from '@iot/runtime';
import type { Channels, Delivery } from '../channels/channels';
import { ChannelNotConfiguredError, type NotificationChannel, PermanentDeliveryError } from '../context';
import { loadAction } from '../load-action';
import { settledRecipients, writeNotificationLog } from '../notification-log';
import { planDeliveries } from '../plan-deliveries';
import type { NotifyActionPayload } from './notify-action.job';

export interface NotifyActionDeps {
  db: Db;
  channels: Channels;
  log: Logger;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The notify.action processor: load the action within the payload's company, plan its sends, skip the
 * recipients this key already reached, send the rest, and log every attempt's outcome in notification_log.
 * Throws (so the job retries) while a retryable send failed; throws PermanentJobError (dead letter at
 * once) when only permanent failures remain.
 */
export async function handleNotifyAction(
  deps: NotifyActionDeps,
  payload: NotifyActionPayload,
  job: JobContext,
): Promise<{ sent: number; skipped: number }> {
  const loaded = await loadAction(deps.db, payload, job.idempotencyKey);
  if (!loaded) {
    throw new PermanentJobError(
      `action ${payload.actionId} of rule ${payload.ruleId} or device ${payload.deviceId} not found in company ${payload.companyId}`,
    );
  }
  const { action, ctx } = loaded;
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
    deliveries = planDeliveries(action);
  } catch (error) {
    throw new PermanentJobError(message(error));
  }
  const settled = await settledRecipients(deps.db, payload.companyId, job.idempotencyKey);
  const retryable: string[] = [];
  const permanent: string[] = [];
  let sent = 0;
  for (const delivery of deliveries) {
    if (settled.has(delivery.recipient)) continue;
    const attempt = { attempt: job.attempt, maxAttempts: job.maxAttempts };
    const channel = deps.channels[delivery.kind] as NotificationChannel<unknown>;
    try {
      const result = await channel.send(ctx, delivery.config);
      sent += 1;
      await writeNotificationLog(deps.db, {
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
      if (!notConfigured) (final ? permanent : retryable).push(`${delivery.recipient}: ${message(error)}`);
      await writeNotificationLog(deps.db, {
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
