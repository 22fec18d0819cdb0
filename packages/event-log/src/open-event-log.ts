import { createInProcessEventLog, type InProcessEventLogOptions } from './in-process/in-process-event-log';
import { createKafkaEventLog } from './kafka/kafka-event-log';
import { createNatsEventLog } from './nats/nats-event-log';
import type { EventLog } from './types';

/** The part of `@iot/config`'s Config that picks the event log (structurally, so `config` fits as is). */
export interface EventLogConfig {
  PROFILE: 'embedded' | 'distributed';
  NATS_URL?: string | undefined;
  KAFKA_BROKERS?: string | undefined;
}

export type EventLogAdapter = EventLog['kind'];

/**
 * Embedded profile: the in-process log. Distributed: Kafka when KAFKA_BROKERS is set (the primary
 * server adapter), else NATS JetStream when NATS_URL is set; a distributed profile with neither has
 * no way to share the log between processes and is refused.
 */
export function chooseEventLogAdapter(config: EventLogConfig): EventLogAdapter {
  if (config.PROFILE === 'embedded') return 'in-process';
  if (config.KAFKA_BROKERS?.trim()) return 'kafka';
  if (config.NATS_URL) return 'nats';
  throw new Error('the distributed profile needs KAFKA_BROKERS or NATS_URL for its event log');
}

export async function openEventLog(
  config: EventLogConfig,
  inProcess: InProcessEventLogOptions = {},
): Promise<EventLog> {
  switch (chooseEventLogAdapter(config)) {
    case 'in-process':
      return createInProcessEventLog(inProcess);
    case 'kafka':
      return createKafkaEventLog({
        brokers: config
          .KAFKA_BROKERS!.split(',')
          .map((broker) => broker.trim())
          .filter(Boolean),
      });
    case 'nats':
      return createNatsEventLog({ servers: config.NATS_URL! });
  }
}
