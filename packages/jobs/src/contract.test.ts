import { randomBytes } from 'node:crypto';
import { afterAll, describe } from 'vitest';
import { BullmqJobQueue, deleteRedisPrefix } from './bullmq/bullmq-queue';
import { InProcessJobQueue } from './in-process/in-process-queue';
import { jobQueueContract } from './testing';

const REDIS_URL = 'redis://127.0.0.1:6379';

describe('in-process adapter', () => {
  jobQueueContract({ create: async (keys) => new InProcessJobQueue({ keys }) });
});

describe('bullmq adapter (Redis 127.0.0.1:6379)', () => {
  // A unique prefix per run keeps parallel runs apart; everything under it is deleted afterwards.
  const prefix = `test-jobs-${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    await deleteRedisPrefix(REDIS_URL, prefix);
  });
  jobQueueContract({
    create: async (keys) => {
      const queue = new BullmqJobQueue({ url: REDIS_URL, prefix, keys });
      await queue.ready();
      return queue;
    },
  });
});
