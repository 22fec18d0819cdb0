import { randomUUID } from 'node:crypto';
import {
  DeliverPolicy,
  DiscardPolicy,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { type MsgHdrs, type NatsConnection, nanos, headers as natsHeaders } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { resolveRetry } from '../backoff';
import { checkName } from '../check-name';
import { partitionForKey } from '../partition-for-key';
import {
  checkUserHeaders,
  HEADER_CONTENT_TYPE,
  HEADER_KEY,
  HEADER_TIMESTAMP,
  validateSubscribeOptions,
} from '../serialization';
import type { BatchHandler, EventLog, PublishRecord, SubscribeOptions, Subscription } from '../types';
import { GroupMember, isNotFound } from './group-member';
import { coordinationBucket, durableName, partitionSubject } from './nats-names';
import {
  bodyBytes,
  type EncodedRecord,
  encodePack,
  encodeRecord,
  HEADER_PACK,
  MAX_PACK_RECORDS,
  packedSize,
  recordCount,
} from './pack';

export interface NatsEventLogOptions {
  /** Server URL(s), e.g. the config's NATS_URL. Ignored when `connection` is given. */
  servers?: string | string[];
  /** An open connection to share; `close()` leaves it open. */
  connection?: NatsConnection;
  /**
   * Partitions per topic (subjects `<topic>.0` .. `<topic>.<n-1>`): the most members of one group
   * that can work at once. Fixed when the stream is created; every client must agree (checked).
   * Default 16.
   */
  partitions?: number;
  /** Stream name = prefix + topic. Default ''. */
  streamPrefix?: string;
  /** How long the stream keeps records, whether consumed or not (ms). Default 7 days. */
  maxAgeMs?: number;
  /** Upper bound of the stream's size; oldest records go first. Default unlimited. */
  maxBytes?: number;
  /** Lease of a member on a partition (ms): how long a crashed member's partitions stay idle. Default 10 s. */
  leaseMs?: number;
  /** JetStream ack wait (ms); a batch in flight is kept alive with `working()`. Default 60 s. */
  ackWaitMs?: number;
  /**
   * Records of one publish call and partition are packed into JetStream messages of at most this many
   * records (see pack.ts; 1 = one message per record). Default 1000.
   */
  maxPackRecords?: number;
  /** Bytes of one pack at most (below the server's max_payload, 1 MiB by default). Default 512 KiB. */
  maxPackBytes?: number;
}

/** Splits one partition's records, in order, into packs bounded by record count and size. */
function* packsOf(list: EncodedRecord[], maxRecords: number, maxBytes: number): Generator<EncodedRecord[]> {
  let chunk: EncodedRecord[] = [];
  let bytes = 0;
  for (const record of list) {
    const size = packedSize(record);
    if (chunk.length > 0 && (chunk.length >= maxRecords || bytes + size > maxBytes)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(record);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}

export interface NatsEventLog extends EventLog {
  readonly kind: 'nats';
  /** Deletes the topic's stream, its consumers and its membership bucket. */
  deleteTopic(topic: string): Promise<void>;
}

interface TopicHandle {
  stream: string;
  kv: KV;
}

const DESCRIPTION = 'iot event log; partitions=';

/**
 * Event log on NATS JetStream: one stream per topic (subjects `<topic>.<partition>`, partition =
 * FNV-1a hash of the key), one durable pull consumer per group and partition with AckPolicy.All,
 * members of a group splitting the partitions under leases (see GroupMember). At least once; per-key
 * order within a group; a new group starts at the oldest record the stream keeps.
 */
export async function createNatsEventLog(options: NatsEventLogOptions = {}): Promise<NatsEventLog> {
  const partitions = options.partitions ?? 16;
  const prefix = options.streamPrefix ?? '';
  const leaseMs = options.leaseMs ?? 10_000;
  const ackWaitMs = options.ackWaitMs ?? 60_000;
  const maxPackRecords = Math.min(options.maxPackRecords ?? MAX_PACK_RECORDS, MAX_PACK_RECORDS);
  const maxPackBytes = options.maxPackBytes ?? 512 * 1024;
  const ownsConnection = !options.connection;
  // noAsyncTraces: nats.js would otherwise build an Error (a stack trace) for every request, which is
  // every JetStream publish, to have the caller's stack in a timeout: a few percent of ingest's CPU.
  const nc =
    options.connection ??
    (await connect({
      servers: options.servers ?? '127.0.0.1:4222',
      noAsyncTraces: true,
      // Reconnect for as long as it takes (nats.js gives up after 10 tries, about 20 s, by default):
      // an app whose log server was down a minute must carry on by itself when it is back.
      maxReconnectAttempts: -1,
    }));
  const js: JetStreamClient = jetstream(nc);
  const jsm: JetStreamManager = await jetstreamManager(nc);
  const kvm = new Kvm(nc);
  const topics = new Map<string, Promise<TopicHandle>>();
  const members = new Set<GroupMember>();
  let closed = false;

  async function openTopic(topic: string): Promise<TopicHandle> {
    checkName('topic', topic);
    const stream = `${prefix}${topic}`;
    const description = `${DESCRIPTION}${partitions}`;
    try {
      const info = await jsm.streams.info(stream);
      if (info.config.description !== description) {
        throw new Error(
          `stream ${stream} was created with "${info.config.description}", this client uses ${partitions} partitions`,
        );
      }
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await jsm.streams.add({
        name: stream,
        description,
        subjects: [`${topic}.*`],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        discard: DiscardPolicy.Old,
        max_age: nanos(options.maxAgeMs ?? 7 * 24 * 3600 * 1000),
        max_bytes: options.maxBytes ?? -1,
        num_replicas: 1,
      });
    }
    const kv = await createCoordinationBucket(stream);
    return { stream, kv };
  }

  /** Member announcements and partition leases; they expire with the bucket's TTL unless renewed. */
  function createCoordinationBucket(stream: string): Promise<KV> {
    return kvm.create(coordinationBucket(stream), { ttl: leaseMs, history: 1, storage: StorageType.Memory });
  }

  /** Tries for a minute: right after a reconnect the server's JetStream may still be starting. */
  async function recreateBucket(stream: string): Promise<void> {
    for (let attempt = 0; attempt < 60 && !closed; attempt++) {
      try {
        await createCoordinationBucket(stream);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  // The coordination bucket lives in memory: a restarted NATS server comes back without it, and every
  // heartbeat's lease and announcement then failed for good, so no member read a partition again (the
  // fault suite's NATS restart stalled the storage writer and the rules worker). After a reconnect it is
  // created again (create is idempotent); the members' old leases fail their compare-and-set renewal,
  // their batches in hand are not acked, and the next heartbeats take the partitions afresh.
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type !== 'reconnect') continue;
      for (const handle of topics.values())
        void handle.then(
          ({ stream }) => recreateBucket(stream),
          () => {},
        );
    }
  })();

  function topicHandle(topic: string): Promise<TopicHandle> {
    let handle = topics.get(topic);
    if (!handle) {
      handle = openTopic(topic);
      topics.set(topic, handle);
      handle.catch(() => topics.delete(topic));
    }
    return handle;
  }

  async function publish(topic: string, records: readonly PublishRecord[]): Promise<void> {
    if (closed) throw new Error('event log is closed');
    const now = String(Date.now());
    // Encode everything first: a bad record rejects the call before anything is sent.
    const byPartition = new Map<number, EncodedRecord[]>();
    for (const record of records) {
      checkUserHeaders(record.headers);
      const encoded = encodeRecord(record.key, record.value, record.headers);
      const p = partitionForKey(record.key, partitions);
      const list = byPartition.get(p);
      if (list) list.push(encoded);
      else byPartition.set(p, [encoded]);
    }
    const messages: { subject: string; body: Uint8Array; headers: MsgHdrs }[] = [];
    for (const [p, list] of byPartition) {
      const subject = partitionSubject(topic, p);
      for (const chunk of packsOf(list, maxPackRecords, maxPackBytes)) {
        const h = natsHeaders();
        h.set(HEADER_TIMESTAMP, now);
        if (chunk.length === 1) {
          // One record: the plain single-record envelope (no framing to read).
          const [single] = chunk as [EncodedRecord];
          h.set(HEADER_KEY, single.key);
          h.set(HEADER_CONTENT_TYPE, single.contentType);
          for (const [name, value] of Object.entries(single.headers ?? {})) h.set(name, value);
          messages.push({ subject, body: bodyBytes(single), headers: h });
        } else {
          h.set(HEADER_PACK, String(chunk.length));
          messages.push({ subject, body: encodePack(chunk), headers: h });
        }
      }
    }
    await topicHandle(topic);
    // One connection delivers in call order, so the stream stores each partition in publish order;
    // the publishes are pipelined and all acks awaited together (the PubAck is the "durably accepted"
    // signal).
    await Promise.all(messages.map((m) => js.publish(m.subject, m.body, { headers: m.headers })));
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
    const { stream, kv } = await topicHandle(topic);
    const member = new GroupMember({
      js,
      jsm,
      kv,
      stream,
      topic,
      group,
      partitions,
      memberId: randomUUID().replaceAll('-', ''),
      leaseMs,
      ackWaitMs,
      handler: handler as BatchHandler<unknown>,
      options: subscribeOptions,
      retry: resolveRetry(subscribeOptions.retry),
      connectionClosed: () => nc.isClosed(),
    });
    members.add(member);
    await member.start();
    let stopped: Promise<void> | undefined;
    return {
      stop() {
        stopped ??= member.stop().finally(() => members.delete(member));
        return stopped;
      },
      partitions: () => member.owned(),
    };
  }

  /**
   * Records held in the messages of a partition's subject from stream sequence `from` on (`count`
   * messages): their headers are read through an ordered consumer that delivers headers only, since a
   * pack counts as many records as it holds.
   */
  async function recordsFrom(stream: string, subject: string, from: number, count: number): Promise<number> {
    if (count === 0) return 0;
    const reader = await js.consumers.get(stream, {
      filter_subjects: subject,
      headers_only: true,
      ...(from > 1 ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: from } : {}),
    });
    let records = 0;
    let seen = 0;
    const messages = await reader.fetch({ max_messages: count, expires: 5000 });
    for await (const msg of messages) {
      records += recordCount(msg.headers);
      if (++seen >= count) break;
    }
    await reader.delete().catch(() => undefined);
    return records;
  }

  async function lag(topic: string, group: string): Promise<number> {
    const { stream } = await topicHandle(topic);
    const info = await jsm.streams.info(stream, { subjects_filter: `${topic}.*` });
    const perSubject = info.state.subjects ?? {};
    const counts = await Promise.all(
      Array.from({ length: partitions }, async (_, p) => {
        const subject = partitionSubject(topic, p);
        try {
          const consumer = await jsm.consumers.info(stream, durableName(group, p));
          const waiting = consumer.num_pending + consumer.num_ack_pending;
          return recordsFrom(stream, subject, consumer.ack_floor.stream_seq + 1, waiting);
        } catch (error) {
          if (!isNotFound(error)) throw error;
          // The group never read this partition: everything the stream holds for it is still to do.
          return recordsFrom(stream, subject, 1, perSubject[subject] ?? 0);
        }
      }),
    );
    return counts.reduce((sum, n) => sum + n, 0);
  }

  return {
    kind: 'nats',
    publish,
    subscribe,
    lag,
    async depth(topic) {
      const { stream } = await topicHandle(topic);
      return (await jsm.streams.info(stream)).state.messages;
    },
    async deleteTopic(topic) {
      const { stream } = await topicHandle(topic);
      topics.delete(topic);
      await jsm.streams.delete(stream).catch((error) => {
        if (!isNotFound(error)) throw error;
      });
      await kvm
        .open(coordinationBucket(stream))
        .then((kv) => kv.destroy())
        .catch(() => undefined);
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...members].map((member) => member.stop()));
      if (ownsConnection) await nc.close();
    },
  };
}
