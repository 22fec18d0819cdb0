/**
 * `notify.water`: one delivery of a water usage warning (issue #26). The rules worker's timer claims the
 * warning (nwa_usage_warnings) and enqueues one job per mail, SMS and valve; the notifier processes it
 * through its email, SMS and remote control channels. Both take the definition from here.
 */
import { NotifyWaterPayload } from '@iot/contracts';
import { defineJob, type JobQueue, type QueuePolicy } from '../types';

/**
 * v1. Key `water:<warning>:<channel>:<user or device:valve>`: a warning reaches each recipient (and
 * closes each valve) once, however often the timer runs. Timeout and retries as notify.action's: SMTP,
 * Twilio and brokers answer within seconds; five attempts ride out a hiccup of a minute and a half.
 */
export const NOTIFY_WATER = defineJob({
  name: 'notify.water',
  version: 1,
  payload: NotifyWaterPayload,
  timeoutMs: 30_000,
  retry: { attempts: 5, delayMs: 2_000, maxDelayMs: 60_000 },
  idempotencyKey: (p) =>
    p.channel === 'valve'
      ? `water:${p.warningId}:valve:${p.deviceId}:${p.valve}`
      : `water:${p.warningId}:${p.channel}:${p.userId}`,
});

export function enqueueNotifyWater(queue: JobQueue, payload: NotifyWaterPayload) {
  return queue.enqueue(NOTIFY_WATER, payload);
}

/** Queue policy of the notify.water processor (STYLE 12). */
export const NOTIFY_WATER_POLICY: QueuePolicy = {
  // A warning goes to a handful of people once per period: a few jobs an hour, never a storm.
  concurrency: 8,
  // Within the notify.action guard; the channels' own limits are not involved here.
  limiter: { max: 100, durationMs: 1_000 },
  // Keys stay deduplicated at enqueue for a day, as notify.action's; job_keys covers a week.
  keepCompletedMs: 24 * 60 * 60 * 1000,
  // Failed jobs kept 7 days for inspection, like notify.action's.
  keepFailedMs: 7 * 24 * 60 * 60 * 1000,
  // Bounded like notify.action's; these are far fewer.
  keepMaxJobs: 10_000,
};
