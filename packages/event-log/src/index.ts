export { createInProcessEventLog, type InProcessEventLogOptions } from './in-process/in-process-event-log';
export { createKafkaEventLog, type KafkaEventLog, type KafkaEventLogOptions } from './kafka/kafka-event-log';
export { createNatsEventLog, type NatsEventLog, type NatsEventLogOptions } from './nats/nats-event-log';
export {
  chooseEventLogAdapter,
  type EventLogAdapter,
  type EventLogConfig,
  openEventLog,
} from './open-event-log';
export { partitionForKey } from './partition-for-key';
export type {
  BatchHandler,
  EventLog,
  LogHeaders,
  LogRecord,
  PublishRecord,
  RetryPolicy,
  SubscribeOptions,
  Subscription,
} from './types';
