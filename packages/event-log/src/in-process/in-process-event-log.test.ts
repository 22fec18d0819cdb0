import { randomUUID } from 'node:crypto';
import { eventLogContract } from '../testing/contract';
import { createInProcessEventLog } from './in-process-event-log';

eventLogContract(
  'in-process',
  async ({ topic, capacity }) => {
    const log = createInProcessEventLog({ partitions: 8, capacity: capacity ?? 10_000 });
    return {
      log,
      topic: topic ?? `uplinks-${randomUUID()}`,
      close: () => log.close(),
      destroy: () => log.close(),
    };
  },
  { durable: false, bounded: true },
);
