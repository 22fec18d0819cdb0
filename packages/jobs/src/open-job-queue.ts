import type { Config } from '@iot/config';
import type { Queryable } from '@iot/db';
import { reportJobQueue } from '@iot/runtime';
import { BullmqJobQueue } from './bullmq/bullmq-queue';
import { createNatsFirstAttemptRelay } from './bullmq/first-attempt-relay';
import { InProcessJobQueue } from './in-process/in-process-queue';
import { createDbJobKeyStore } from './job-keys';
import type { JobQueue } from './types';

export interface OpenJobQueueOptions {
  /** Where idempotency keys are claimed (job_keys); the platform's Db. */
  db: Queryable;
  /** BullMQ key prefix (default `bull`). */
  prefix?: string;
}

/**
 * The profile's job queue: in-process (embedded) or BullMQ on REDIS_URL (distributed). With NATS_URL the
 * BullMQ queue relays the first attempts of claimed jobs over NATS to the processes that run them.
 */
export function openJobQueue(
  config: Pick<Config, 'PROFILE' | 'REDIS_URL' | 'NATS_URL'>,
  options: OpenJobQueueOptions,
): JobQueue {
  const keys = createDbJobKeyStore(options.db);
  const prefix = options.prefix ?? 'bull';
  const queue: JobQueue =
    config.PROFILE === 'distributed'
      ? new BullmqJobQueue({
          url: config.REDIS_URL,
          keys,
          prefix,
          ...(config.NATS_URL
            ? { relay: createNatsFirstAttemptRelay({ servers: config.NATS_URL, prefix }) }
            : {}),
        })
      : new InProcessJobQueue({ keys });
  // Asked at each scrape (/metrics) until the queue closes.
  const unreport = reportJobQueue(queue);
  const close = queue.close.bind(queue);
  queue.close = async () => {
    unreport();
    await close();
  };
  return queue;
}
