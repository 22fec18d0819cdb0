import type { Config } from '@iot/config';
import type { Queryable } from '@iot/db';
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
  if (config.PROFILE === 'distributed') {
    return new BullmqJobQueue({
      url: config.REDIS_URL,
      keys,
      ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
    });
  }
  return new InProcessJobQueue({ keys });
}
