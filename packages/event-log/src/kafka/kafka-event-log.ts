import {
  type Admin,
  type Consumer,
  type IHeaders,
  Kafka,
  type KafkaMessage,
  logLevel,
  Partitioners,
  type Producer,
} from 'kafkajs';
import { reportError, resolveRetry, retryDelay, sleep } from '../backoff';
import { checkName } from '../check-name';
import {
  checkUserHeaders,
  decodeValue,
  encodeValue,
  HEADER_CONTENT_TYPE,
  validateSubscribeOptions,
} from '../serialization';
import type {
  BatchHandler,
  EventLog,
  LogRecord,
  PublishRecord,
  SubscribeOptions,
  Subscription,
} from '../types';

export interface KafkaEventLogOptions {
  /** Bootstrap brokers, e.g. the config's KAFKA_BROKERS split at commas. */
  brokers: string[];
  clientId?: string;
  /** Partitions of a topic this client creates (an existing topic keeps its own). Default 16. */
  partitions?: number;
  /** Replication of a topic this client creates; -1 = the broker's default. */
  replicationFactor?: number;
}

export interface KafkaEventLog extends EventLog {
  readonly kind: 'kafka';
  deleteTopic(topic: string): Promise<void>;
}

/** Longest quiet time inside one eachBatch call before kafkajs must heartbeat (session timeout 30 s). */
const HEARTBEAT_EVERY_MS = 3000;

/**
 * Event log on Kafka (kafkajs): key = device id with the Java-compatible murmur2 partitioner, one
 * consumer group per group name, `eachBatch` with `autoCommit: false`: a slice of at most maxBatch
 * records is committed (offset + 1) only after the handler resolved; a failed slice is retried in
 * place with backoff (heartbeats keep the membership), and one left behind on stop or rebalance is
 * fetched again by the partition's next owner. Per-key order: Kafka keeps a partition in order and
 * kafkajs hands one partition's batches out one at a time. New groups start at the earliest offset.
 */
export async function createKafkaEventLog(options: KafkaEventLogOptions): Promise<KafkaEventLog> {
  const kafka = new Kafka({
    clientId: options.clientId ?? 'iot-event-log',
    brokers: options.brokers,
    logLevel: logLevel.ERROR,
  });
  const admin: Admin = kafka.admin();
  // Idempotent: a retried send does not duplicate or reorder a partition's records; acks from all ISR.
  const producer: Producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await admin.connect();
  await producer.connect();
  const partitions = options.partitions ?? 16;
  const topics = new Map<string, Promise<void>>();
  const consumers = new Set<{ stop(): Promise<void> }>();
  let closed = false;

  function ensureTopic(topic: string): Promise<void> {
    checkName('topic', topic);
    let ready = topics.get(topic);
    if (!ready) {
      ready = admin
        .createTopics({
          topics: [{ topic, numPartitions: partitions, replicationFactor: options.replicationFactor ?? -1 }],
          waitForLeaders: true,
        })
        .then(() => undefined);
      topics.set(topic, ready);
      ready.catch(() => topics.delete(topic));
    }
    return ready;
  }

  async function publish(topic: string, records: readonly PublishRecord[]): Promise<void> {
    if (closed) throw new Error('event log is closed');
    const timestamp = String(Date.now());
    const messages = records.map((record) => {
      checkUserHeaders(record.headers);
      const { contentType, body } = encodeValue(record.value);
      return {
        key: record.key,
        value: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
        timestamp,
        headers: { ...record.headers, [HEADER_CONTENT_TYPE]: contentType },
      };
    });
    await ensureTopic(topic);
    await producer.send({ topic, messages, acks: -1 });
  }

  async function subscribe<T>(
    topic: string,
    group: string,
    handler: BatchHandler<T>,
    subscribeOptions: SubscribeOptions,
  ): Promise<Subscription> {
    if (closed) throw new Error('event log is closed');
    checkName('group', group);
    validateSubscribeOptions(subscribeOptions);
    await ensureTopic(topic);
    const retry = resolveRetry(subscribeOptions.retry);
    const leaving = new AbortController();
    const consumer: Consumer = kafka.consumer({
      groupId: group,
      maxWaitTimeInMs: subscribeOptions.maxWaitMs,
    });
    let assigned: number[] = [];
    consumer.on(consumer.events.REBALANCING, () => {
      assigned = [];
    });
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      assigned = [...(event.payload.memberAssignment[topic] ?? [])].sort((a, b) => a - b);
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      // One batch in flight per partition, partitions in parallel.
      partitionsConsumedConcurrently: partitions,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        const active = () => isRunning() && !isStale() && !leaving.signal.aborted;
        for (let i = 0; i < batch.messages.length; i += subscribeOptions.maxBatch) {
          if (!active()) return;
          const slice = batch.messages.slice(i, i + subscribeOptions.maxBatch);
          const records = slice.map((message) => toLogRecord(topic, batch.partition, message));
          for (let attempt = 1; ; attempt++) {
            try {
              await handler(records as LogRecord<T>[]);
              break;
            } catch (error) {
              reportError(subscribeOptions.onError, error, {
                topic,
                group,
                partition: batch.partition,
                attempt,
              });
              // Backoff in heartbeat-sized steps so the group does not evict this member.
              let wait = retryDelay(retry, attempt);
              while (wait > 0 && active()) {
                const step = Math.min(wait, HEARTBEAT_EVERY_MS);
                await sleep(step, leaving.signal);
                wait -= step;
                await heartbeat();
              }
              // Left unresolved and uncommitted: fetched again by this partition's next owner.
              if (!active()) return;
            }
          }
          const last = slice[slice.length - 1]!.offset;
          await consumer.commitOffsets([
            { topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() },
          ]);
          resolveOffset(last);
          await heartbeat();
        }
      },
    });
    let stopped: Promise<void> | undefined;
    const entry = {
      stop() {
        stopped ??= (async () => {
          leaving.abort();
          // disconnect() waits for the eachBatch in flight, then leaves the group.
          await consumer.disconnect();
          consumers.delete(entry);
        })();
        return stopped;
      },
    };
    consumers.add(entry);
    return { stop: entry.stop, partitions: () => assigned };
  }

  async function offsetsOf(topic: string) {
    await ensureTopic(topic);
    return admin.fetchTopicOffsets(topic);
  }

  return {
    kind: 'kafka',
    publish,
    subscribe,
    async lag(topic, group) {
      const ends = await offsetsOf(topic);
      const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
      let total = 0;
      for (const end of ends) {
        const done = committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? '-1';
        const from = BigInt(done) < 0n ? BigInt(end.low) : BigInt(done);
        total += Number(BigInt(end.high) - from);
      }
      return total;
    },
    async depth(topic) {
      const ends = await offsetsOf(topic);
      return ends.reduce((sum, end) => sum + Number(BigInt(end.high) - BigInt(end.low)), 0);
    },
    async deleteTopic(topic) {
      topics.delete(topic);
      await admin.deleteTopics({ topics: [topic] });
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...consumers].map((consumer) => consumer.stop()));
      await producer.disconnect();
      await admin.disconnect();
    },
  };
}

function headerText(value: IHeaders[string]): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined ? undefined : one.toString();
}

function toLogRecord(topic: string, partition: number, message: KafkaMessage): LogRecord<unknown> {
  const headers: Record<string, string> = {};
  let contentType: string | undefined;
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    const text = headerText(value);
    if (text === undefined) continue;
    if (name === HEADER_CONTENT_TYPE) contentType = text;
    else if (!name.toLowerCase().startsWith('iot-')) headers[name] = text;
  }
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString() ?? '',
    value: decodeValue(contentType, message.value ?? new Uint8Array()),
    headers,
    timestamp: Number(message.timestamp),
  };
}
