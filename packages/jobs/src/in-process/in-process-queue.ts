import { metrics } from '@iot/runtime';
import type { Static, TSchema } from 'typebox';
import { backoffDelay } from '../backoff';
import { jobIdFor } from '../job-id';
import type { JobKeyStore } from '../job-keys';
import { errorText, inFlightDelay, isPermanent, type JobEnvelope, leaseMs, runAttempt } from '../run-attempt';
import {
  type DeadLetter,
  type EnqueueOptions,
  type EnqueueResult,
  JobDeferredError,
  type JobDefinition,
  type JobHandler,
  type JobQueue,
  type Processor,
  type QueueDepth,
  type QueuePolicy,
} from '../types';
import { validatePayload } from '../validate-payload';

interface Entry {
  id: string;
  /** The job's name (queue depth per job). */
  name: string;
  envelope: JobEnvelope;
  attemptsMade: number;
  state: 'waiting' | 'running' | 'completed' | 'failed';
  /**
   * Enqueued with `claimed`: the first attempt runs under the enqueuer's claim if it starts before
   * this time (half the lease); later it claims like any attempt (and takes over the stale claim).
   */
  claimedUntil?: number;
  /** When a completed or failed entry stops deduplicating its key. */
  forgetAt: number;
}

interface Lane {
  job: JobDefinition<TSchema>;
  handler: JobHandler<TSchema>;
  policy: QueuePolicy;
  ready: Entry[];
  running: Set<Promise<void>>;
  starts: number[];
  wakeup: NodeJS.Timeout | undefined;
}

export interface InProcessJobQueueOptions {
  /** Idempotency of side effects across restarts (job_keys); without it only the queue deduplicates. */
  keys?: JobKeyStore;
  /** Dead letters kept per job name (oldest dropped first). */
  maxDeadLetters?: number;
}

/**
 * The embedded profile's job queue: jobs live in this process's memory, so a restart loses what was
 * waiting (the job_keys table still stops repeats of what already ran). Same semantics as the BullMQ
 * adapter, proven by the shared contract suite.
 */
export class InProcessJobQueue implements JobQueue {
  readonly kind = 'in-process' as const;
  private readonly entries = new Map<string, Entry>();
  private readonly waiting = new Map<string, Entry[]>();
  private readonly lanes = new Map<string, Lane>();
  private readonly dead = new Map<string, DeadLetter[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly closing = new AbortController();
  private lastPrune = 0;
  private closed = false;

  constructor(private readonly options: InProcessJobQueueOptions = {}) {}

  async enqueue<S extends TSchema>(
    job: JobDefinition<S>,
    payload: Static<S>,
    options: EnqueueOptions = {},
  ): Promise<EnqueueResult> {
    if (this.closing.signal.aborted || this.closed) throw new Error('job queue is closed');
    const valid = validatePayload(job, payload);
    const key = job.idempotencyKey(valid);
    const id = jobIdFor(job.name, key);
    const known = this.entries.get(id);
    const startsClaimed = this.startsClaimed(job.name);
    if (known && (known.state === 'waiting' || known.state === 'running' || known.forgetAt > Date.now())) {
      if (options.claimed) await this.options.keys?.release(key);
      return { id, idempotencyKey: key };
    }
    // A claim nobody here will run under is given back, so whoever runs the job can claim it.
    if (options.claimed && !startsClaimed) await this.options.keys?.release(key);
    const entry: Entry = {
      id,
      name: job.name,
      envelope: { v: job.version, key, payload: valid },
      attemptsMade: 0,
      state: 'waiting',
      forgetAt: 0,
      ...(options.claimed && startsClaimed ? { claimedUntil: Date.now() + leaseMs(job) / 2 } : {}),
    };
    this.entries.set(id, entry);
    this.after(options.delayMs ?? 0, () => this.makeReady(job.name, entry));
    return { id, idempotencyKey: key };
  }

  process<S extends TSchema>(job: JobDefinition<S>, handler: JobHandler<S>, policy: QueuePolicy): Processor {
    if (this.lanes.has(job.name)) throw new Error(`job ${job.name} already has a processor`);
    // The retry counter of every job processed here exists from the start, at 0 (a PromQL rate needs it).
    metrics.jobRetries.inc({ job_name: job.name }, 0);
    const lane: Lane = {
      job: job as unknown as JobDefinition<TSchema>,
      handler: handler as unknown as JobHandler<TSchema>,
      policy,
      ready: this.waiting.get(job.name) ?? [],
      running: new Set(),
      starts: [],
      wakeup: undefined,
    };
    this.waiting.delete(job.name);
    this.lanes.set(job.name, lane);
    this.pump(lane);
    return {
      close: async () => {
        this.lanes.delete(job.name);
        if (lane.wakeup) clearTimeout(lane.wakeup);
        await Promise.allSettled([...lane.running]);
      },
    };
  }

  startsClaimed(name: string): boolean {
    return !this.closed && this.lanes.has(name);
  }

  async deadLetters(name: string, limit = 100): Promise<DeadLetter[]> {
    return (this.dead.get(name) ?? []).slice(-limit).reverse();
  }

  async depth(): Promise<QueueDepth[]> {
    const byName = new Map<string, QueueDepth>();
    // Every job processed here shows, with zeros when idle.
    for (const name of this.lanes.keys()) byName.set(name, { job: name, waiting: 0, running: 0 });
    for (const entry of this.entries.values()) {
      if (entry.state !== 'waiting' && entry.state !== 'running') continue;
      const depth = byName.get(entry.name) ?? { job: entry.name, waiting: 0, running: 0 };
      depth[entry.state] += 1;
      byName.set(entry.name, depth);
    }
    return [...byName.values()];
  }

  /** Readiness (GET /health/ready): an open in-process queue is always ready. */
  async ready(): Promise<void> {
    if (this.closed) throw new Error('job queue closed');
  }

  /**
   * Lets running attempts finish, then stops. Jobs still waiting or waiting for a retry are dropped: they
   * live only in this process's memory (the embedded profile's accepted trade-off).
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const running: Promise<void>[] = [];
    for (const lane of this.lanes.values()) {
      if (lane.wakeup) clearTimeout(lane.wakeup);
      running.push(...lane.running);
    }
    this.lanes.clear();
    await Promise.allSettled(running);
    this.closing.abort(new Error('job queue closed'));
  }

  private after(ms: number, fn: () => void): void {
    if (this.closed) return;
    if (ms <= 0) {
      fn();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  // A job enqueued before its processor exists waits for one (the embedded platform starts the rules
  // worker and the notifier in the same process, in either order).
  private makeReady(name: string, entry: Entry): void {
    const lane = this.lanes.get(name);
    if (!lane) {
      const list = this.waiting.get(name) ?? [];
      list.push(entry);
      this.waiting.set(name, list);
      return;
    }
    lane.ready.push(entry);
    this.pump(lane);
  }

  private pump(lane: Lane): void {
    if (this.closed || this.lanes.get(lane.job.name) !== lane) return;
    while (lane.ready.length > 0 && lane.running.size < lane.policy.concurrency) {
      const limiter = lane.policy.limiter;
      if (limiter) {
        const now = Date.now();
        lane.starts = lane.starts.filter((t) => t > now - limiter.durationMs);
        if (lane.starts.length >= limiter.max) {
          if (!lane.wakeup) {
            const wait = (lane.starts[0] ?? now) + limiter.durationMs - now;
            lane.wakeup = setTimeout(() => {
              lane.wakeup = undefined;
              this.pump(lane);
            }, wait);
          }
          return;
        }
        lane.starts.push(now);
      }
      const entry = lane.ready.shift() as Entry;
      const run = this.run(lane, entry).finally(() => {
        lane.running.delete(run);
        this.pump(lane);
      });
      lane.running.add(run);
    }
  }

  private async run(lane: Lane, entry: Entry): Promise<void> {
    entry.state = 'running';
    entry.attemptsMade += 1;
    const claimed = entry.claimedUntil !== undefined && Date.now() < entry.claimedUntil;
    entry.claimedUntil = undefined;
    const { job } = lane;
    try {
      await runAttempt(job, lane.handler, entry.envelope, {
        jobId: entry.id,
        attempt: entry.attemptsMade,
        keys: this.options.keys,
        claimed,
        closing: this.closing.signal,
      });
      entry.state = 'completed';
      entry.forgetAt = Date.now() + lane.policy.keepCompletedMs;
    } catch (error) {
      if (error instanceof JobDeferredError) {
        entry.attemptsMade -= 1;
        entry.state = 'waiting';
        this.after(inFlightDelay(error), () => this.makeReady(job.name, entry));
        return;
      }
      if (!isPermanent(error) && entry.attemptsMade < job.retry.attempts) {
        metrics.jobRetries.inc({ job_name: job.name });
        entry.state = 'waiting';
        this.after(backoffDelay(job.retry, entry.attemptsMade), () => this.makeReady(job.name, entry));
        return;
      }
      entry.state = 'failed';
      entry.forgetAt = Date.now() + lane.policy.keepFailedMs;
      const list = this.dead.get(job.name) ?? [];
      list.push({
        name: job.name,
        id: entry.id,
        idempotencyKey: entry.envelope.key,
        payload: entry.envelope.payload,
        attempts: entry.attemptsMade,
        error: errorText(error),
        failedAt: new Date().toISOString(),
      });
      const max = this.options.maxDeadLetters ?? 10_000;
      if (list.length > max) list.splice(0, list.length - max);
      this.dead.set(job.name, list);
    }
    this.prune(lane.policy);
  }

  /**
   * Forgets completed and failed entries past their retention, and the oldest finished ones beyond
   * keepMaxJobs, so memory stays bounded by policy; at most once a second, since it walks every entry.
   */
  private prune(policy: QueuePolicy): void {
    const now = Date.now();
    if (now - this.lastPrune < 1000) return;
    this.lastPrune = now;
    let finished = 0;
    for (const entry of this.entries.values()) {
      if (entry.state === 'completed' || entry.state === 'failed') finished += 1;
    }
    // Map order is insertion order: the first finished entries are the oldest.
    for (const [id, entry] of this.entries) {
      if (entry.state !== 'completed' && entry.state !== 'failed') continue;
      if (entry.forgetAt <= now || finished > policy.keepMaxJobs) {
        this.entries.delete(id);
        finished -= 1;
      }
    }
  }
}
