/**
 * The event log port. Front doors publish decoded uplinks to topic "uplinks" keyed by device id;
 * the storage writer and the rules worker consume them in batches, each as its own consumer group.
 *
 * Delivery is at least once: a batch counts as consumed (committed / acked) only after the handler
 * resolved. Records with the same key reach a consumer group in publish order. Members of one group
 * split the partitions between them; every group gets every record.
 */

/** Header values are strings on every adapter (NATS and Kafka headers are text on the wire here). */
export type LogHeaders = Readonly<Record<string, string>>;

export interface PublishRecord {
  /** Partitioning key (the device id for "uplinks"): same key, same partition, publish order kept. */
  key: string;
  /** A plain object / array / JSON value is sent as JSON; a Uint8Array is sent as raw bytes. */
  value: Uint8Array | object;
  headers?: LogHeaders;
}

export interface LogRecord<T = unknown> {
  topic: string;
  partition: number;
  /**
   * Position inside the partition (in-process and Kafka offset; JetStream stream sequence x 1,000,000 +
   * the record's position in a packed message), as a string because Kafka offsets are int64. Increases
   * with publish order within a partition.
   */
  offset: string;
  key: string;
  /** The parsed JSON value, or the bytes exactly as published for a Uint8Array value. */
  value: T;
  /** User headers only: the envelope's own headers (see serialization.ts) are taken off. */
  headers: LogHeaders;
  /** Milliseconds since the epoch at which the producer published the record. */
  timestamp: number;
}

export type BatchHandler<T = unknown> = (batch: LogRecord<T>[]) => Promise<void>;

export interface RetryPolicy {
  /** First wait after a failed batch (ms). */
  initialMs: number;
  /** Upper bound of the doubling wait (ms). */
  maxMs: number;
}

export interface SubscribeOptions {
  /** Most records handed to one handler call. */
  maxBatch: number;
  /**
   * How long a partly filled batch may wait for more records once its first record is there (ms).
   * A full batch is handed over at once.
   */
  maxWaitMs: number;
  /** Backoff between redeliveries of a failed batch; doubles per attempt. Default 100 ms .. 30 s. */
  retry?: Partial<RetryPolicy>;
  /** Told about every failed handler call (the batch is retried after the backoff regardless). */
  onError?: (
    error: unknown,
    info: { topic: string; group: string; partition: number; attempt: number },
  ) => void;
}

export interface Subscription {
  /**
   * Stops taking new batches, lets the batch in flight finish (a finished batch is committed), and
   * leaves the group so other members take over its partitions. A batch waiting for a retry is left
   * uncommitted and goes to the next owner of its partition.
   */
  stop(): Promise<void>;
  /** Partitions this member owns right now (changes while the group rebalances). */
  partitions(): readonly number[];
}

export interface EventLog {
  readonly kind: 'in-process' | 'nats' | 'kafka';
  /**
   * Resolves once the log has accepted every record (in memory for the in-process log, stored by
   * the JetStream stream / acknowledged by all in-sync Kafka replicas otherwise); only then may a
   * front door answer "accepted". Waits while a bounded log is full. Rejects if any record was not
   * accepted: records of a rejected call may be partly stored, so a retry can duplicate some.
   */
  publish(topic: string, records: readonly PublishRecord[]): Promise<void>;
  subscribe<T = unknown>(
    topic: string,
    group: string,
    handler: BatchHandler<T>,
    options: SubscribeOptions,
  ): Promise<Subscription>;
  /** Records in the topic not yet committed by the group (what is left to do). */
  lag(topic: string, group: string): Promise<number>;
  /**
   * Records the log holds for the topic right now (in-process: counts against its capacity). NATS
   * counts stored JetStream messages, where a pack of many records counts once.
   */
  depth(topic: string): Promise<number>;
  /** Stops all subscriptions of this instance and closes its connections. */
  close(): Promise<void>;
}
