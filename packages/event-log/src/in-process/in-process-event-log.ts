import { reportError, resolveRetry, retryDelay, sleep } from '../backoff';
import { partitionForKey } from '../partition-for-key';
import { checkUserHeaders, toJson, validateSubscribeOptions } from '../serialization';
import type {
  BatchHandler,
  EventLog,
  LogHeaders,
  LogRecord,
  PublishRecord,
  RetryPolicy,
  SubscribeOptions,
  Subscription,
} from '../types';
import { Wakeup } from '../wakeup';

export interface InProcessEventLogOptions {
  /** Partitions per topic: the most batches of one group in flight at once. Default 16. */
  partitions?: number;
  /**
   * Most records one topic holds (published, not yet committed by every group). `publish` waits
   * while the topic is full, which is the embedded profile's back-pressure. Default 100 000.
   */
  capacity?: number;
  /**
   * A consumer group whose commit makes a record durable: while it is subscribed to a topic, `publish`
   * resolves only once it has committed the published records. The embedded profile names its storage
   * writer, so an acknowledged uplink is one in the database and a kill -9 loses none; without it,
   * `publish` resolves when the records are in this process's memory.
   */
  ackAfterGroup?: string;
}

/** A record as held in memory: the value already serialized, so every group parses its own copy. */
interface StoredRecord {
  key: string;
  json: string | undefined;
  bytes: Uint8Array | undefined;
  headers: LogHeaders;
  timestamp: number;
}

interface PartitionState {
  records: StoredRecord[];
  /** Publishers waiting for the ackAfterGroup to commit past `offset`, oldest first. */
  durableWaiters: { offset: number; done: (error?: Error) => void }[];
  /** Index in `records` of the oldest retained record (records before it are trimmed lazily). */
  head: number;
  /** Offset of records[head]. */
  base: number;
}

interface TopicState {
  name: string;
  partitions: PartitionState[];
  size: number;
  groups: Map<string, GroupState>;
  /** Publishes run one after another per topic so a waiting publisher keeps its place. */
  publishTail: Promise<void>;
  space: Wakeup;
}

interface GroupState {
  name: string;
  /** Next offset to deliver per partition = committed position. Kept after the last member leaves. */
  cursors: number[];
  members: Member[];
  pumps: (Pump | undefined)[];
}

interface Pump {
  wakeup: Wakeup;
  done: Promise<void>;
}

interface Member {
  handler: BatchHandler<unknown>;
  options: SubscribeOptions;
  retry: RetryPolicy;
  stopping: AbortController;
  inFlight: Set<Promise<void>>;
}

const DEFAULT_PARTITIONS = 16;
const DEFAULT_CAPACITY = 100_000;

/**
 * The embedded profile's event log: bounded, partitioned by key hash, one batch in flight per
 * partition per group, redelivery with backoff on handler failure.
 *
 * Not persistent: records live in this process's memory only and are lost if the process dies before
 * every group committed them. With `ackAfterGroup` a publisher hears "accepted" only once that group
 * (the storage writer) committed its records, so what was acknowledged is stored; later groups (the
 * rules worker) may still miss the newest records on a crash. The distributed profile's NATS / Kafka
 * logs keep everything. Committed positions survive a consumer's stop and re-subscribe within the process.
 */
export function createInProcessEventLog(options: InProcessEventLogOptions = {}): EventLog {
  const partitionCount = options.partitions ?? DEFAULT_PARTITIONS;
  const capacity = options.capacity ?? DEFAULT_CAPACITY;
  if (!Number.isInteger(partitionCount) || partitionCount < 1)
    throw new RangeError('partitions must be >= 1');
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be >= 1');

  const topics = new Map<string, TopicState>();
  const subscriptions = new Set<Subscription>();
  let closed = false;

  function topicState(name: string): TopicState {
    let topic = topics.get(name);
    if (!topic) {
      topic = {
        name,
        partitions: Array.from({ length: partitionCount }, () => ({
          records: [],
          durableWaiters: [],
          head: 0,
          base: 0,
        })),
        size: 0,
        groups: new Map(),
        publishTail: Promise.resolve(),
        space: new Wakeup(),
      };
      topics.set(name, topic);
    }
    return topic;
  }

  function endOffset(partition: PartitionState): number {
    return partition.base + partition.records.length - partition.head;
  }

  /** Appends one record; returns its partition and offset. */
  function append(topic: TopicState, record: StoredRecord): [number, number] {
    const p = partitionForKey(record.key, partitionCount);
    const partition = topic.partitions[p]!;
    partition.records.push(record);
    topic.size++;
    for (const group of topic.groups.values()) group.pumps[p]?.wakeup.wake();
    return [p, endOffset(partition) - 1];
  }

  /** Resolves when the ackAfterGroup has committed every offset in `last` (partition -> last offset). */
  function durable(topic: TopicState, last: Map<number, number>): Promise<void> {
    return new Promise((resolve, reject) => {
      let pending = last.size;
      const done = (error?: Error) => {
        if (error) reject(error);
        else if (--pending === 0) resolve();
      };
      for (const [p, offset] of last) topic.partitions[p]!.durableWaiters.push({ offset, done });
    });
  }

  function releaseDurable(partition: PartitionState, cursor: number): void {
    const waiters = partition.durableWaiters;
    let n = 0;
    while (n < waiters.length && waiters[n]!.offset < cursor) waiters[n++]!.done();
    if (n > 0) waiters.splice(0, n);
  }

  /** Drops records every group has committed; frees capacity for waiting publishers. */
  function trim(topic: TopicState, p: number): void {
    const partition = topic.partitions[p]!;
    let floor = endOffset(partition);
    for (const group of topic.groups.values()) floor = Math.min(floor, group.cursors[p]!);
    const drop = floor - partition.base;
    if (drop <= 0) return;
    partition.head += drop;
    partition.base = floor;
    topic.size -= drop;
    // Compacting only when the dead prefix is large keeps trimming amortised O(1) per record.
    if (partition.head > 1024 && partition.head * 2 > partition.records.length) {
      partition.records.splice(0, partition.head);
      partition.head = 0;
    }
    topic.space.wake();
  }

  /** Appends in order, waiting for room; returns the last offset written per partition. */
  async function appendAll(topic: TopicState, stored: StoredRecord[]): Promise<Map<number, number>> {
    const last = new Map<number, number>();
    let i = 0;
    while (i < stored.length) {
      if (closed) throw new Error('event log is closed');
      while (i < stored.length && topic.size < capacity) {
        const [p, offset] = append(topic, stored[i++]!);
        last.set(p, offset);
      }
      if (i < stored.length) await topic.space.wait();
    }
    return last;
  }

  async function publish(topicName: string, records: readonly PublishRecord[]): Promise<void> {
    if (closed) throw new Error('event log is closed');
    // Serialize everything first: a bad record rejects the call before anything is appended.
    const now = Date.now();
    const stored = records.map((record): StoredRecord => {
      checkUserHeaders(record.headers);
      const isBytes = record.value instanceof Uint8Array;
      return {
        key: record.key,
        json: isBytes ? undefined : toJson(record.value),
        // A copy, so the producer reusing its buffer cannot change what consumers read.
        bytes: isBytes ? (record.value as Uint8Array).slice() : undefined,
        headers: { ...record.headers },
        timestamp: now,
      };
    });
    const topic = topicState(topicName);
    const run = topic.publishTail.then(() => appendAll(topic, stored));
    topic.publishTail = run.then(
      () => undefined,
      () => undefined,
    );
    const last = await run;
    const ackGroup =
      options.ackAfterGroup === undefined ? undefined : topic.groups.get(options.ackAfterGroup);
    if (ackGroup && ackGroup.members.length > 0 && last.size > 0) await durable(topic, last);
  }

  function groupState(topic: TopicState, name: string): GroupState {
    let group = topic.groups.get(name);
    if (!group) {
      // A new group starts at the oldest record still held, like the NATS and Kafka adapters.
      group = {
        name,
        cursors: topic.partitions.map((partition) => partition.base),
        members: [],
        pumps: Array.from({ length: partitionCount }, () => undefined),
      };
      topic.groups.set(name, group);
    }
    return group;
  }

  function ownerOf(group: GroupState, p: number): Member | undefined {
    return group.members.length === 0 ? undefined : group.members[p % group.members.length];
  }

  function toLogRecord(topic: string, p: number, offset: number, record: StoredRecord): LogRecord<unknown> {
    return {
      topic,
      partition: p,
      offset: String(offset),
      key: record.key,
      value: record.json === undefined ? record.bytes : JSON.parse(record.json),
      headers: record.headers,
      timestamp: record.timestamp,
    };
  }

  /** The only loop that hands out batches of partition `p` to `group`: one batch in flight. */
  async function runPump(topic: TopicState, group: GroupState, p: number, wakeup: Wakeup): Promise<void> {
    const partition = topic.partitions[p]!;
    const available = () => endOffset(partition) - group.cursors[p]!;
    while (!closed) {
      let owner = ownerOf(group, p);
      if (!owner) return;
      if (available() === 0) {
        await wakeup.wait();
        continue;
      }
      // Partly filled batch: wait up to maxWaitMs for it to fill.
      const deadline = Date.now() + owner.options.maxWaitMs;
      while (available() < owner.options.maxBatch && Date.now() < deadline && !closed) {
        await wakeup.wait(deadline - Date.now());
        owner = ownerOf(group, p);
        if (!owner) return;
      }
      const start = group.cursors[p]!;
      const count = Math.min(available(), owner.options.maxBatch);
      const from = partition.head + (start - partition.base);
      const batch = partition.records
        .slice(from, from + count)
        .map((record, i) => toLogRecord(topic.name, p, start + i, record));
      await deliver(topic, group, p, owner, batch, start + count);
    }
  }

  /** Runs the handler until it succeeds (then commits) or its member stops (then leaves it). */
  async function deliver(
    topic: TopicState,
    group: GroupState,
    p: number,
    member: Member,
    batch: LogRecord<unknown>[],
    next: number,
  ): Promise<void> {
    let settle!: () => void;
    const tracked = new Promise<void>((resolve) => {
      settle = resolve;
    });
    member.inFlight.add(tracked);
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await member.handler(batch);
          group.cursors[p] = next;
          if (group.name === options.ackAfterGroup) releaseDurable(topic.partitions[p]!, next);
          trim(topic, p);
          return;
        } catch (error) {
          reportError(member.options.onError, error, {
            topic: topic.name,
            group: group.name,
            partition: p,
            attempt,
          });
          if (member.stopping.signal.aborted || closed) return;
          await sleep(retryDelay(member.retry, attempt), member.stopping.signal);
          // Stopped during the backoff: the batch stays uncommitted for the partition's next owner.
          if (member.stopping.signal.aborted || closed) return;
        }
      }
    } finally {
      member.inFlight.delete(tracked);
      settle();
    }
  }

  function startPumps(topic: TopicState, group: GroupState): void {
    for (let p = 0; p < partitionCount; p++) {
      if (group.pumps[p]) {
        group.pumps[p]!.wakeup.wake();
        continue;
      }
      const wakeup = new Wakeup();
      const pump: Pump = { wakeup, done: Promise.resolve() };
      // runPump only throws on a bug: that surfaces as an unhandled rejection instead of a silent stall.
      pump.done = runPump(topic, group, p, wakeup).then(() => {
        if (group.pumps[p] === pump) group.pumps[p] = undefined;
        // A member may have joined while this pump was on its way out.
        if (group.members.length > 0 && !closed) startPumps(topic, group);
      });
      group.pumps[p] = pump;
    }
  }

  async function subscribe<T>(
    topicName: string,
    groupName: string,
    handler: BatchHandler<T>,
    options: SubscribeOptions,
  ): Promise<Subscription> {
    if (closed) throw new Error('event log is closed');
    validateSubscribeOptions(options);
    const topic = topicState(topicName);
    const group = groupState(topic, groupName);
    const member: Member = {
      handler: handler as BatchHandler<unknown>,
      options,
      retry: resolveRetry(options.retry),
      stopping: new AbortController(),
      inFlight: new Set(),
    };
    group.members.push(member);
    startPumps(topic, group);

    let stopped: Promise<void> | undefined;
    const subscription: Subscription = {
      stop() {
        stopped ??= (async () => {
          member.stopping.abort();
          group.members.splice(group.members.indexOf(member), 1);
          for (const pump of group.pumps) pump?.wakeup.wake();
          await Promise.all([...member.inFlight]);
          subscriptions.delete(subscription);
        })();
        return stopped;
      },
      partitions() {
        const index = group.members.indexOf(member);
        if (index < 0) return [];
        const out: number[] = [];
        for (let p = index; p < partitionCount; p += group.members.length) out.push(p);
        return out;
      },
    };
    subscriptions.add(subscription);
    return subscription;
  }

  return {
    kind: 'in-process',
    publish,
    subscribe,
    async lag(topicName, groupName) {
      const topic = topics.get(topicName);
      if (!topic) return 0;
      const group = topic.groups.get(groupName);
      if (!group) return topic.size;
      return topic.partitions.reduce(
        (sum, partition, p) => sum + endOffset(partition) - group.cursors[p]!,
        0,
      );
    },
    async depth(topicName) {
      return topics.get(topicName)?.size ?? 0;
    },
    async close() {
      if (closed) return;
      // Publishers waiting for the ackAfterGroup hear now, not after a batch that may never finish.
      for (const topic of topics.values()) {
        for (const partition of topic.partitions) {
          for (const waiter of partition.durableWaiters.splice(0))
            waiter.done(new Error('event log closed before the records were committed'));
        }
      }
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
      closed = true;
      for (const topic of topics.values()) {
        topic.space.wake();
        for (const group of topic.groups.values()) for (const pump of group.pumps) pump?.wakeup.wake();
      }
    },
  };
}
