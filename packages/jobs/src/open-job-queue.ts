import type { Config } from '@iot/config';
import type { Queryable } from '@iot/db';
import { reportJobQueue } from '@iot/runtime';
import { BullmqJobQueue } from './bullmq/bullmq-queue';
import { InProcessJobQueue } from './in-process/in-process-queue';
import { createDbJobKeyStore } from './job-keys';
import type { JobQueue } from './types';

export interface OpenJobQueueOptions {
  /** Where idempotency keys are claimed (job_keys); the platform's Db. */
  db: Queryable;
  /** BullMQ key prefix (default `bull`). */
  prefix?: string;
}

/** The profile's job queue: in-process (embedded) or BullMQ on REDIS_URL (distributed). */
export function openJobQueue(
  config: Pick<Config, 'PROFILE' | 'REDIS_URL'>,
  options: OpenJobQueueOptions,
): JobQueue {
  const keys = createDbJobKeyStore(options.db);
  const queue: JobQueue =
    config.PROFILE === 'distributed'
      ? new BullmqJobQueue({
          url: config.REDIS_URL,
          keys,
          ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
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
