import type { QueuePolicy } from '@iot/jobs';
import type { ChannelLimits } from './channel-limits';

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
  // more of them) and the SMTP pool (SMTP_POOL_CONNECTIONS) and the channel limits bound what reaches
  // a provider; 16 left jobs queueing for seconds (tests/bench/README.md). On a machine about twice as
  // slow (2026-11-22) the bookkeeping took a second and more under the storm, so 512 slots drained
  // fewer than 500 jobs/s and jobs waited 1 to 2 s for one (storm p50 1.8 to 2.7 s); 2048 slots took
  // that wait away (0.7 s, the rest being the rules worker's backlog) and made the coalesced
  // statements larger, so the database did less work per job. A slot costs a pending promise and a
  // payload of a few hundred bytes.
  concurrency: 2048,
  // The queue-wide guard: 1000 starts per second per worker. What a provider may take is decided per
  // channel (NOTIFY_CHANNEL_LIMITS): one number for every channel either floods a paid provider or
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

/**
 * Sends per second per notifier process and channel (token buckets, channel-limits.ts). A job over its
 * channel's limit is put back until the bucket refills, without using up an attempt (JobDeferredError),
 * so a storm is spread out in time instead of failing or dead-lettering.
 * - email: the company's own SMTP server (SMTP_URL), reached over a pool of connections; mail servers
 *   take hundreds of messages a second, and the storm scenario of the benchmark is 500 mails/s.
 * - system: rows in our own database; limited only so a storm cannot starve everything else.
 * - sms / voice: paid per message and rate-limited by Twilio (a long code sends about 1 SMS/s, an
 *   account starts calls at 1 per second by default; beyond that Twilio queues or refuses): 10 SMS and
 *   2 calls per second, bursts of 20 and 5, keep a storm from running up a bill and a queue at Twilio.
 * - http: customers' webhooks, often small servers: 100/s, bursts of 200.
 * - remote_control: downlinks to devices (LoRaWAN duty cycle, MQTT devices): 50/s, bursts of 100.
 */
export const NOTIFY_CHANNEL_LIMITS: ChannelLimits = {
  email: { perSecond: 1_000, burst: 1_000 },
  system: { perSecond: 1_000, burst: 1_000 },
  sms: { perSecond: 10, burst: 20 },
  voice_message: { perSecond: 2, burst: 5 },
  http: { perSecond: 100, burst: 200 },
  remote_control: { perSecond: 50, burst: 100 },
};

/** Connections of the pooled SMTP transport: a few per mail-sending slot, below a mail server's per-client limit (Postfix: 50). */
export const SMTP_POOL_CONNECTIONS = 32;
