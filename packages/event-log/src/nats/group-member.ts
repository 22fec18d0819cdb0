import {
  AckPolicy,
  type Consumer,
  type ConsumerConfig,
  type ConsumerInfo,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import { nanos } from '@nats-io/nats-core';
import { reportError, retryDelay, sleep } from '../backoff';
import { decodeValue, HEADER_CONTENT_TYPE, HEADER_KEY, HEADER_TIMESTAMP } from '../serialization';
import type { BatchHandler, LogHeaders, LogRecord, RetryPolicy, SubscribeOptions } from '../types';
import { durableName, leaseKey, memberKey, partitionSubject } from './nats-names';
import { decodePack, HEADER_PACK, OFFSET_SCALE } from './pack';

export interface GroupMemberContext {
  js: JetStreamClient;
  jsm: JetStreamManager;
  kv: KV;
  stream: string;
  topic: string;
  group: string;
  partitions: number;
  memberId: string;
  leaseMs: number;
  ackWaitMs: number;
  handler: BatchHandler<unknown>;
  options: SubscribeOptions;
  retry: RetryPolicy;
  /** True once the connection is closed for good: the heartbeat stops (leases lapse on the server). */
  connectionClosed: () => boolean;
}

interface Lease {
  revision: number;
  /** Local clock time until which this member may still ack for the partition. */
  validUntil: number;
}

interface Worker {
  partition: number;
  /** Aborted to leave: cancels a backoff wait; the batch being handled still finishes. */
  leaving: AbortController;
  /** Set when the lease was lost: the batch in hand must not be acked. */
  lost: boolean;
  messages: ConsumerMessages | undefined;
  done: Promise<void>;
}

/**
 * One member of a consumer group on one topic.
 *
 * Partitioning: the topic's stream has subjects `<topic>.<partition>`; a group has one durable pull
 * consumer per partition (`<group>_p<partition>`, filtered on that subject, AckPolicy.All). Only one
 * member of the group reads a partition at a time, so per-key order holds and a batch is acked once
 * (ack of the batch's last message = commit of the batch).
 *
 * Who reads which partition: members announce themselves in a KV bucket (`m.<group>.<member>`,
 * renewed every leaseMs/3 and expiring with the bucket's TTL), sort the live member ids and take
 * partitions p with members[p % n] === self. A partition is read only under its lease
 * (`l.<group>.<partition>`, taken with a compare-and-set create, renewed with compare-and-set update).
 * A member gives a partition up after its batch in flight is acked, then deletes the lease; the next
 * owner takes the lease on its next heartbeat. A crashed member's leases expire after leaseMs.
 *
 * Handover rewind: when the new owner finds the durable consumer with messages delivered but not
 * acked (a crashed owner's batch, or messages the old owner had prefetched), it recreates the
 * consumer at the ack floor + 1, so those records come again before any newer one (without this,
 * JetStream would hand out newer records first and break the per-key order).
 */
export class GroupMember {
  private readonly leases = new Map<number, Lease>();
  private readonly workers = new Map<number, Worker>();
  private readonly releasing = new Map<number, Promise<void>>();
  private readonly renewing = new Map<number, Promise<void>>();
  private heartbeat: ReturnType<typeof setTimeout> | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private stopping = false;

  constructor(private readonly ctx: GroupMemberContext) {}

  async start(): Promise<void> {
    const first = this.tick();
    this.ticking = first.catch(() => undefined);
    try {
      await first;
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  owned(): number[] {
    return [...this.workers.values()]
      .filter((worker) => !worker.leaving.signal.aborted)
      .map((worker) => worker.partition)
      .sort((a, b) => a - b);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.heartbeat) clearTimeout(this.heartbeat);
    await this.ticking;
    const held = new Set([...this.workers.keys(), ...this.leases.keys()]);
    await Promise.all([...held].map((p) => this.release(p)));
    await this.ctx.kv.delete(memberKey(this.ctx.group, this.ctx.memberId)).catch(() => undefined);
  }

  /** Ticks at a fixed rate: a slow tick (busy machine) must not stretch the renewal period. */
  private schedule(started: number): void {
    if (this.stopping || this.ctx.connectionClosed()) return;
    const delay = Math.max(0, this.ctx.leaseMs / 3 - (Date.now() - started));
    this.heartbeat = setTimeout(() => {
      this.ticking = this.tick().catch(() => undefined);
    }, delay);
  }

  /** Heartbeat: renew leases, announce self, give up and take partitions to match the member list. */
  private async tick(): Promise<void> {
    const started = Date.now();
    const { kv, group, memberId, partitions } = this.ctx;
    try {
      // Leases first and all at once: they are what lapses when a tick runs late.
      await Promise.all([...this.leases.keys()].map((p) => this.renew(p)));
      await kv.put(memberKey(group, memberId), memberId);
      const members: string[] = [];
      for await (const key of await kv.keys(memberKey(group, '*'))) members.push(key.split('.')[2]!);
      if (!members.includes(memberId)) members.push(memberId);
      members.sort();
      const mine = new Set<number>();
      for (let p = 0; p < partitions; p++) if (members[p % members.length] === memberId) mine.add(p);

      for (const p of this.leases.keys()) if (!mine.has(p)) void this.release(p);
      for (const p of mine) {
        if (this.leases.has(p) || this.workers.has(p) || this.stopping) continue;
        await this.acquire(p);
      }
    } finally {
      this.schedule(started);
    }
  }

  /**
   * Renews the lease with a compare-and-set update. A partition being given up is renewed too: its
   * last batch is still to be acked under the lease.
   */
  private renew(p: number): Promise<void> {
    // The heartbeat and an ack (holdLease) may renew at the same time: both would send the same
    // revision and the second compare-and-set would fail as if the lease were lost. One at a time.
    let renewing = this.renewing.get(p);
    if (!renewing) {
      renewing = this.renewOnce(p).finally(() => this.renewing.delete(p));
      this.renewing.set(p, renewing);
    }
    return renewing;
  }

  private async renewOnce(p: number): Promise<void> {
    const lease = this.leases.get(p);
    if (!lease) return;
    const sent = Date.now();
    try {
      lease.revision = await this.ctx.kv.update(
        leaseKey(this.ctx.group, p),
        this.ctx.memberId,
        lease.revision,
      );
      lease.validUntil = sent + this.ctx.leaseMs * 0.8;
    } catch {
      // Someone else holds it now (ours expired): stop at once, without acking what is in hand.
      this.leases.delete(p);
      const worker = this.workers.get(p);
      if (worker) {
        worker.lost = true;
        worker.leaving.abort();
        worker.messages?.stop();
        // Once its batch is over the partition is free again here: the next heartbeat takes it back
        // if it is still this member's share and the lease is free (else it stayed idle for good).
        void worker.done.then(() => {
          if (this.workers.get(p) === worker) this.workers.delete(p);
        });
      }
    }
  }

  /**
   * Before an ack: the local clock says whether the lease is surely still ours; when it is not sure
   * (a late heartbeat), the compare-and-set renewal decides: it succeeds only if nobody took it.
   */
  private async holdLease(worker: Worker): Promise<boolean> {
    if (worker.lost) return false;
    if (this.leaseValid(worker.partition)) return true;
    await this.renew(worker.partition);
    return !worker.lost && this.leaseValid(worker.partition);
  }

  private async acquire(p: number): Promise<void> {
    const sent = Date.now();
    let revision: number;
    try {
      revision = await this.ctx.kv.create(leaseKey(this.ctx.group, p), this.ctx.memberId);
    } catch {
      return; // still held by its previous owner, who lets go after its batch in flight
    }
    this.leases.set(p, { revision, validUntil: sent + this.ctx.leaseMs * 0.8 });
    const worker: Worker = {
      partition: p,
      leaving: new AbortController(),
      lost: false,
      messages: undefined,
      done: Promise.resolve(),
    };
    worker.done = this.run(worker).catch((error) => {
      reportError(this.ctx.options.onError, error, {
        topic: this.ctx.topic,
        group: this.ctx.group,
        partition: p,
        attempt: 0,
      });
    });
    this.workers.set(p, worker);
    // A worker that ends by itself (consumer gone, connection closed) frees the partition.
    void worker.done.then(() => {
      if (this.workers.get(p) === worker && !worker.leaving.signal.aborted) void this.release(p);
    });
  }

  private release(p: number): Promise<void> {
    let releasing = this.releasing.get(p);
    if (!releasing) {
      releasing = this.letGo(p).finally(() => this.releasing.delete(p));
      this.releasing.set(p, releasing);
    }
    return releasing;
  }

  private async letGo(p: number): Promise<void> {
    const worker = this.workers.get(p);
    if (worker) {
      worker.leaving.abort();
      worker.messages?.stop();
      await worker.done;
      this.workers.delete(p);
    }
    const lease = this.leases.get(p);
    this.leases.delete(p);
    if (lease) {
      await this.ctx.kv
        .delete(leaseKey(this.ctx.group, p), { previousSeq: lease.revision })
        .catch(() => undefined);
    }
  }

  private leaseValid(p: number): boolean {
    const lease = this.leases.get(p);
    return lease !== undefined && Date.now() < lease.validUntil;
  }

  /** Opens the partition's durable consumer at the committed position (see the class comment). */
  private async openConsumer(p: number): Promise<void> {
    const { jsm, stream, group, topic, ackWaitMs } = this.ctx;
    const durable = durableName(group, p);
    let info: ConsumerInfo | undefined;
    try {
      info = await jsm.consumers.info(stream, durable);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (info && info.num_ack_pending === 0) return;
    const config: Partial<ConsumerConfig> = {
      durable_name: durable,
      filter_subject: partitionSubject(topic, p),
      ack_policy: AckPolicy.All,
      ack_wait: nanos(ackWaitMs),
      max_deliver: -1,
      // Enough for a prefetch of a few batches; order is kept because one member reads at a time.
      max_ack_pending: Math.max(1000, this.ctx.options.maxBatch * 4),
      deliver_policy: DeliverPolicy.All,
    };
    if (info) {
      const floor = info.ack_floor.stream_seq;
      await jsm.consumers.delete(stream, durable);
      if (floor > 0) {
        config.deliver_policy = DeliverPolicy.StartSequence;
        config.opt_start_seq = floor + 1;
      }
    }
    await jsm.consumers.add(stream, config);
  }

  private async run(worker: Worker): Promise<void> {
    const p = worker.partition;
    const { js, stream, group, topic, options } = this.ctx;
    await this.openConsumer(p);
    if (worker.leaving.signal.aborted) return;
    const consumer = await js.consumers.get(stream, durableName(group, p));
    // Prefetch bounded by a count of messages (PREFETCH_MESSAGES says why not bytes).
    const messages = await consume(consumer);
    worker.messages = messages;
    if (worker.leaving.signal.aborted) messages.stop();
    const iterator = messages[Symbol.asyncIterator]();
    let pending: Promise<IteratorResult<JsMsg>> | undefined;
    const next = () => {
      pending ??= iterator.next();
      return pending;
    };
    // Offset of the last record handled: a record at or below it is a redelivered duplicate
    // (prefetched past ack_wait) and is skipped, so a key never goes back in time.
    let handled = -1n;
    // A message whose records did not all fit in the last batch: the next batch starts with the rest.
    let rest: Unpacked | undefined;
    const unpack = (msg: JsMsg): Unpacked => {
      const all = toLogRecords(topic, p, msg);
      // Most messages lie wholly past `handled`: only a message that reaches it is filtered per record.
      const records =
        BigInt(msg.seq) * OFFSET_SCALE > handled ? all : all.filter((r) => BigInt(r.offset) > handled);
      return { msg, records, taken: 0 };
    };

    while (!worker.leaving.signal.aborted) {
      const batch: LogRecord<unknown>[] = [];
      const involved: JsMsg[] = [];
      // The newest message all of whose records are in this batch or an earlier one: acking it
      // (AckPolicy.All) commits everything up to it.
      let complete: JsMsg | undefined;
      /**
       * Takes a message's records into the batch. A message that does not fit waits for the next
       * batch whole, unless the batch is empty (a pack larger than maxBatch is split).
       */
      const take = (u: Unpacked): boolean => {
        const left = u.records.length - u.taken;
        if (batch.length > 0 && batch.length + left > options.maxBatch) return false;
        const n = Math.min(left, options.maxBatch - batch.length);
        for (let i = 0; i < n; i++) batch.push(u.records[u.taken++]!);
        involved.push(u.msg);
        if (u.taken < u.records.length) return false;
        complete = u.msg;
        return true;
      };

      if (rest) {
        if (take(rest)) rest = undefined;
      } else {
        const first = await next();
        pending = undefined;
        if (first.done) return;
        const u = unpack(first.value);
        if (u.records.length === 0) {
          first.value.ack();
          continue;
        }
        if (!take(u)) rest = u;
      }
      // Fill the batch until maxBatch, or until maxWaitMs after the first record.
      let timedOut = false;
      const timer = sleep(options.maxWaitMs).then(() => {
        timedOut = true;
      });
      while (!rest && batch.length < options.maxBatch && !timedOut) {
        const result = await Promise.race([next(), timer.then(() => undefined)]);
        if (result === undefined) break;
        pending = undefined;
        if (result.done) return;
        const u = unpack(result.value);
        if (u.records.length > 0 && !take(u)) rest = u;
      }
      if (batch.length === 0) continue;
      const committed = await this.handle(worker, batch, involved, complete);
      if (!committed) return;
      handled = BigInt(batch[batch.length - 1]!.offset);
    }
  }

  /**
   * Runs the handler until it succeeds, then acks `complete` (AckPolicy.All: every message up to it).
   * Without `complete` (the batch is the first part of a large pack) nothing is acked yet: the pack is
   * acked with the batch that takes its last record.
   */
  private async handle(
    worker: Worker,
    records: LogRecord<unknown>[],
    involved: JsMsg[],
    complete: JsMsg | undefined,
  ): Promise<boolean> {
    const { topic, group, options, handler, retry, ackWaitMs } = this.ctx;
    const p = worker.partition;
    // Keep JetStream from redelivering the batch to nobody while a slow handler or a backoff runs.
    const keepAlive = setInterval(() => {
      for (const msg of involved) msg.working();
    }, ackWaitMs / 3);
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await handler(records);
          break;
        } catch (error) {
          reportError(options.onError, error, { topic, group, partition: p, attempt });
          if (worker.leaving.signal.aborted) return false;
          await sleep(retryDelay(retry, attempt), worker.leaving.signal);
          // Leaving during the backoff: the batch stays unacked for the partition's next owner.
          if (worker.leaving.signal.aborted) return false;
        }
      }
    } finally {
      clearInterval(keepAlive);
    }
    if (!complete) return true;
    // Without a valid lease another member may already own the partition: it gets the batch again.
    if (!(await this.holdLease(worker))) throw new Error(`lease on partition ${p} was lost before the ack`);
    // Acking the same last message again is harmless (AckPolicy.All), so a slow server gets retries
    // before the partition is given up (giving up means the batch is handled twice).
    for (let attempt = 0; attempt < 3 && (await this.holdLease(worker)); attempt++) {
      const acked = await complete.ackAck({ timeout: 5000 }).catch(() => false);
      if (acked) return true;
    }
    throw new Error(`ack of partition ${p} not confirmed; the batch will be redelivered`);
  }
}

interface Unpacked {
  msg: JsMsg;
  /** Records not handled before (a redelivered message may be partly handled already). */
  records: LogRecord<unknown>[];
  /** Records already put into a batch. */
  taken: number;
}

/**
 * Messages a partition's consumer prefetches. A message may be a pack of up to 1000 records (typically
 * tens: one publish call's records of the partition), so this is a few thousand records. Counted in
 * messages: a byte-bounded pull ends at the first message that does not fit, and consuming then
 * stalled until the pull expired.
 */
const PREFETCH_MESSAGES = 64;

function consume(consumer: Consumer): Promise<ConsumerMessages> {
  return consumer.consume({ max_messages: PREFETCH_MESSAGES });
}

/** The records of one message: a pack's records in order, or the one record of a plain message. */
function toLogRecords(topic: string, partition: number, msg: JsMsg): LogRecord<unknown>[] {
  let timestamp = 0;
  const packed = msg.headers?.get(HEADER_PACK);
  if (packed) {
    timestamp = Number(msg.headers?.get(HEADER_TIMESTAMP) ?? 0);
    return decodePack(topic, partition, msg.seq, timestamp, Number(packed), msg.data);
  }
  const headers: Record<string, string> = {};
  let key = '';
  let contentType: string | undefined;
  if (msg.headers) {
    for (const name of msg.headers.keys()) {
      const value = msg.headers.get(name);
      if (name === HEADER_KEY) key = value;
      else if (name === HEADER_CONTENT_TYPE) contentType = value;
      else if (name === HEADER_TIMESTAMP) timestamp = Number(value);
      else if (!name.toLowerCase().startsWith('iot-')) headers[name] = value;
    }
  }
  return [
    {
      topic,
      partition,
      offset: String(BigInt(msg.seq) * OFFSET_SCALE),
      key,
      value: decodeValue(contentType, msg.data),
      headers: headers as LogHeaders,
      timestamp,
    },
  ];
}

export function isNotFound(error: unknown): boolean {
  return error instanceof Error && /not found/i.test(error.message);
}
