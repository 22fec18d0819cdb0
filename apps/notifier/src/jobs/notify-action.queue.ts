import type { QueuePolicy } from '@iot/jobs';

/** Queue policy of the notify.action processor (STYLE 12). */
export const NOTIFY_ACTION_POLICY: QueuePolicy = {
  // Deliveries wait on SMTP, Twilio and webhook round trips, not on CPU: 16 in flight per worker keeps
  // a 2-core machine busy without opening hundreds of sockets to one mail server.
  concurrency: 16,
  // 100 starts per second per worker: well above the alarm rate of the p99 budget (1k uplinks/s rarely
  // fire more than a few percent), low enough that an alarm storm cannot flood a provider's rate limit.
  limiter: { max: 100, durationMs: 1_000 },
  // Completed jobs keep their key deduplicated at enqueue for a day: a rules worker redelivering a batch
  // after a crash does so within minutes; job_keys (7 days) covers anything later.
  keepCompletedMs: 24 * 60 * 60 * 1000,
  // Failed jobs stay in the queue's failed set for 7 days, as long as job_keys keeps keys, for inspection.
  keepFailedMs: 7 * 24 * 60 * 60 * 1000,
  // Whatever the age, at most 100 000 of each (about 100 MB of Redis or heap at ~1 kB a job): an alarm
  // storm must not exhaust memory; job_keys still stops repeats of jobs forgotten here.
  keepMaxJobs: 100_000,
};
