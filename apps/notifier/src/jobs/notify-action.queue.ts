import type { ChannelLimits } from './channel-limits';

// The queue policy of notify.action (NOTIFY_ACTION_POLICY) is in @iot/jobs beside the job's definition.

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
 * - farming_task: rows in our own database, like system; a rule plans one open task at a time anyway.
 */
export const NOTIFY_CHANNEL_LIMITS: ChannelLimits = {
  email: { perSecond: 1_000, burst: 1_000 },
  system: { perSecond: 1_000, burst: 1_000 },
  sms: { perSecond: 10, burst: 20 },
  voice_message: { perSecond: 2, burst: 5 },
  http: { perSecond: 100, burst: 200 },
  remote_control: { perSecond: 50, burst: 100 },
  farming_task: { perSecond: 1_000, burst: 1_000 },
};

/** Connections of the pooled SMTP transport: a few per mail-sending slot, below a mail server's per-client limit (Postfix: 50). */
export const SMTP_POOL_CONNECTIONS = 32;
