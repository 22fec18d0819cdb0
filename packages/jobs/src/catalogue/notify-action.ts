/**
 * `notify.action`: one rule action to deliver. The rules worker enqueues it (and, where the notifier runs
 * in its process, reads the action and claims the job's key in the firing's transaction); the notifier
 * processes it. Both take the definition from here, so neither imports the other.
 */
import { NotifyActionPayload, type PreloadedAction } from '@iot/contracts';
import { findActionDeliveries, type Queryable } from '@iot/db';
import {
  defineJob,
  type EnqueueOptions,
  type JobDefinition,
  type JobQueue,
  type QueuePolicy,
  type RetryPolicy,
} from '../types';

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

/**
 * What the rules worker calls for each action of a firing: validated, deduplicated by key. `claimed`:
 * the firing's transaction claimed the key (claimJobKeys), see EnqueueOptions.
 */
export function enqueueNotifyAction(queue: JobQueue, payload: NotifyActionPayload, options?: EnqueueOptions) {
  return queue.enqueue(NOTIFY_ACTION, payload, options);
}

/**
 * Reads, in the caller's transaction (the rules worker's, which fired the rules), what each job's
 * first run would load: one statement for all jobs. Every join names the payload's own company (as
 * the notifier's load does), so a payload pointing at another company's rows gets nothing and its job
 * loads (and refuses) as before. Index i of the answer belongs to payloads[i]; undefined: not found.
 */
export function preloadActions(
  tx: Queryable,
  payloads: readonly NotifyActionPayload[],
): Promise<(PreloadedAction | undefined)[]> {
  return findActionDeliveries(tx, payloads);
}

/** Queue policy of the notify.action processor (STYLE 12). */
export const NOTIFY_ACTION_POLICY: QueuePolicy = {
  // Deliveries wait on SMTP, Twilio, webhook and database round trips, not on CPU: jobs in flight per
  // worker = drain rate x a job's time. In the benchmark's storm (500 mails/s, distributed) a job took
  // about 100 ms p50 claim to completion and 64 in flight left jobs waiting in the queue about 800 ms
  // p50; 128 kept that wait short. A job holds its slot until its bookkeeping after the send is committed
  // (outbox row, notification_log row, key completion: about 250 ms p50 on PGlite behind the storage
  // writer and the rules worker, against about 10 ms for the SMTP submission), so 128 drained at most
  // about 500 jobs/s and the embedded storm's jobs waited about 470 ms p50 for a slot (publish -> mail
  // 610 / 900 ms p50 / p99); 512 take that wait away (214 / 346 ms, 2026-11-21 16:07 UTC). The
  // bookkeeping is coalesced (one statement for many jobs, so more jobs make larger statements, not
  // more of them) and the notifier's SMTP pool (SMTP_POOL_CONNECTIONS) and the channel limits bound what reaches
  // a provider; 16 left jobs queueing for seconds (tests/bench/README.md). On a machine about twice as
  // slow (2026-11-22) the bookkeeping took a second and more under the storm, so 512 slots drained
  // fewer than 500 jobs/s and jobs waited 1 to 2 s for one (storm p50 1.8 to 2.7 s); 2048 slots took
  // that wait away (0.7 s, the rest being the rules worker's backlog) and made the coalesced
  // statements larger, so the database did less work per job. A slot costs a pending promise and a
  // payload of a few hundred bytes.
  concurrency: 2048,
  // The queue-wide guard: 1000 starts per second per worker. What a provider may take is decided per
  // channel (the notifier's NOTIFY_CHANNEL_LIMITS): one number for every channel either floods a paid provider or
  // throttles the company's own mail server.
  limiter: { max: 1_000, durationMs: 1_000 },
  // Completed jobs keep their key deduplicated at enqueue for a day: a rules worker redelivering a batch
  // after a crash does so within minutes; job_keys (7 days) covers anything later.
  keepCompletedMs: 24 * 60 * 60 * 1000,
  // Failed jobs stay in the queue's failed set for 7 days, as long as job_keys keeps keys, for inspection.
  keepFailedMs: 7 * 24 * 60 * 60 * 1000,
  // Whatever the age, at most 100 000 of each (about 100 MB of Redis or heap at ~1 kB a job): an alarm
  // storm must not exhaust memory; job_keys still stops repeats of jobs forgotten here.
  keepMaxJobs: 100_000,
};
