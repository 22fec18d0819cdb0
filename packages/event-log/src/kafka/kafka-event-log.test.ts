import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { eventLogContract } from '../testing/contract';
import { createKafkaEventLog } from './kafka-event-log';

// The one environment read outside the config module, allowed for this test only: there is no Kafka
// broker on the development machines, so the suite runs only where KAFKA_BROKERS names one.
const brokers = process.env.KAFKA_BROKERS;
if (!brokers) console.warn('Kafka event log contract suite did NOT run: KAFKA_BROKERS is not set.');

describe.skipIf(!brokers)(
  'Kafka adapter (did NOT run: set KAFKA_BROKERS=host:port[,host:port] to point it at a broker)',
  () => {
    eventLogContract(
      'Kafka',
      async ({ topic }) => {
        const log = await createKafkaEventLog({ brokers: brokers!.split(','), partitions: 8 });
        const name = topic ?? `uplinks-${randomUUID()}`;
        return {
          log,
          topic: name,
          close: () => log.close(),
          destroy: async () => {
            await log.deleteTopic(name);
            await log.close();
          },
        };
      },
      { durable: true, bounded: false },
    );
  },
);
