import {
  AckPolicy,
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
import type { BatchHandler, LogRecord, RetryPolicy, SubscribeOptions } from '../types';
import { durableName, leaseKey, memberKey, partitionSubject } from './nats-names';
import { consume, PartitionBatches } from './partition-batches';

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
    const batches = new PartitionBatches(messages, topic, p, options);
    while (!worker.leaving.signal.aborted) {
      const batch = await batches.read();
      if (!batch) return;
      if (batch.records.length === 0) continue;
      const committed = await this.handle(worker, batch.records, batch.involved, batch.complete);
      if (!committed) return;
      batches.handled(batch);
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

export function isNotFound(error: unknown): boolean {
  return error instanceof Error && /not found/i.test(error.message);
}
