import { isDeepStrictEqual } from 'node:util';
import { metrics } from '@iot/runtime';
import { DelayedError, type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
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
import type { FirstAttemptRelay } from './first-attempt-relay';

export interface BullmqJobQueueOptions {
  /** redis://host:port (REDIS_URL). */
  url: string;
  /** Redis key prefix of every queue (BullMQ `prefix`); tests use a unique one per run. */
  prefix?: string;
  keys?: JobKeyStore;
  /**
   * How long a worker's lock on a running job lasts without renewal; a killed worker's job is taken over
   * by another worker once the lock ran out and a stalled check ran (BullMQ defaults: 30 s each).
   */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Dead letters kept per job name (the list is trimmed to this length). */
  maxDeadLetters?: number;
  /**
   * Hands first attempts of claimed jobs to a processor in another process (and serves this process's
   * processors), past the queue; closed with the queue. Without it a claimed job of a processor that
   * does not run here is queued as usual.
   */
  relay?: FirstAttemptRelay;
}

const BACKOFF_TYPE = 'iot-exponential';

/**
 * A job whose first attempt ran in the enqueuing process (EnqueueOptions.claimed) and did not succeed:
 * the attempts it made there, and the error that made it a dead letter when it was final.
 */
interface LocalOutcome {
  /** Attempts made before BullMQ ran it (1). */
  pre?: number;
  /** Set when the local attempt failed for good: the BullMQ worker only records the dead letter. */
  failed?: string;
}

interface LocalLane {
  job: JobDefinition<TSchema>;
  handler: JobHandler<TSchema>;
  policy: QueuePolicy;
  running: number;
}

/**
 * The distributed profile's job queue: one BullMQ queue per job name on Redis. Jobs survive restarts and
 * a killed worker's running job goes back to waiting (stalled-job check) for another worker; the job id
 * is derived from the idempotency key, so BullMQ adds a key only once while the job is kept. Dead letters
 * go to the Redis list `<prefix>:<job name>:dead` (newest first).
 */
export class BullmqJobQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  readonly prefix: string;
  private readonly redis: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Set<Worker>();
  private readonly closing = new AbortController();
  /** Processors of this process by job name, for first attempts started at enqueue (`claimed`). */
  private readonly local = new Map<string, LocalLane>();
  private readonly localRuns = new Set<Promise<void>>();

  constructor(private readonly options: BullmqJobQueueOptions) {
    this.prefix = options.prefix ?? 'bull';
    // BullMQ's blocking commands need maxRetriesPerRequest null.
    this.redis = new Redis(options.url, { maxRetriesPerRequest: null });
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.redis, prefix: this.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  deadLetterKey(name: string): string {
    return `${this.prefix}:${name}:dead`;
  }

  async enqueue<S extends TSchema>(
    job: JobDefinition<S>,
    payload: Static<S>,
    options: EnqueueOptions = {},
  ): Promise<EnqueueResult> {
    const valid = validatePayload(job, payload);
    const key = job.idempotencyKey(valid);
    const id = jobIdFor(job.name, key);
    const envelope: JobEnvelope = { v: job.version, key, payload: valid };
    const add = (delay: number | undefined) => this.add(job, id, envelope, delay);
    if (options.claimed) {
      const started = await this.startClaimed(job, envelope, id, add);
      if (started) return { id, idempotencyKey: key };
      // Nobody runs it now: give the claim back so the worker that takes the job can claim it.
      await this.options.keys?.release(key);
    }
    await add(options.delayMs);
    return { id, idempotencyKey: key };
  }

  /**
   * The first attempt of a claimed job, at once: in this process when a processor here has a free slot,
   * else in one reached through the relay. The job goes to BullMQ as a delayed back-up, due only after
   * the claim's lease: if the process running the attempt dies, a worker takes it from there (its claim
   * takes the stale one over and skips recipients already served). True when the job is in hand: started,
   * maybe started (an offer without an answer), or refused elsewhere and queued at once; false when
   * nothing was added.
   */
  private async startClaimed(
    job: JobDefinition<TSchema>,
    envelope: JobEnvelope,
    id: string,
    add: (delay: number | undefined) => Promise<unknown>,
  ): Promise<boolean> {
    if (this.closing.signal.aborted) return false;
    const backUpDelay = leaseMs(job) + 1_000;
    const lane = this.local.get(job.name);
    if (lane && lane.running < lane.policy.concurrency) {
      const added = add(backUpDelay);
      this.startLocal(lane, envelope, id, added);
      await added;
      return true;
    }
    const { relay } = this.options;
    if (!relay) return false;
    // The back-up and the offer go out together: waiting for Redis before offering put a round trip
    // before every relayed mail (issue #31). The process that takes the offer removes the back-up when
    // its attempt succeeds; one that succeeds before the back-up landed finds nothing to remove, and the
    // back-up, due after the lease, finds the key done and sends nothing.
    const [added, offered] = await Promise.allSettled([
      add(backUpDelay),
      relay.offer(job.name, encodeOffer({ id, envelope })),
    ]);
    const answer = offered.status === 'fulfilled' ? offered.value : 'unknown';
    if (added.status === 'rejected') {
      // No back-up: the enqueue fails and the producer hands the job over again (a taken offer keeps
      // the claim, so that hand-over finds the key busy or done; a refused one gives it back).
      if (answer === 'refused') await this.options.keys?.release(envelope.key);
      throw added.reason;
    }
    if (answer !== 'refused') return true; // taken, or maybe taken: the back-up covers it after the lease
    // Refused for sure (nobody serves it, or no free slot there): queued at once under a fresh claim.
    await this.options.keys?.release(envelope.key);
    await (await this.queue(job.name).getJob(id))?.promote();
    return true;
  }

  private startLocal(lane: LocalLane, envelope: JobEnvelope, id: string, added: Promise<unknown>): void {
    lane.running += 1;
    const run = this.runLocal(lane, envelope, id, added).finally(() => {
      lane.running -= 1;
      this.localRuns.delete(run);
    });
    this.localRuns.add(run);
  }

  /** An offer from another process's enqueue (relay): taken when a slot is free here. */
  private takeOffer(lane: LocalLane, data: Uint8Array): boolean {
    if (this.closing.signal.aborted || this.local.get(lane.job.name) !== lane) return false;
    if (lane.running >= lane.policy.concurrency) return false;
    const { id, envelope } = decodeOffer(data);
    this.startLocal(lane, envelope, id, Promise.resolve());
    return true;
  }

  /**
   * Attempt 1 of a claimed job in this process; then its back-up in BullMQ is removed (success), put
   * back for the deferral, or marked with the attempt made (and the dead-letter error when final) and
   * moved to its retry time, so BullMQ's attempts continue the count.
   */
  private async runLocal(lane: LocalLane, envelope: JobEnvelope, id: string, added: Promise<unknown>) {
    const { job } = lane;
    let outcome: { ok: true } | { ok: false; error: unknown };
    try {
      await runAttempt(job, lane.handler, envelope, {
        jobId: id,
        attempt: 1,
        keys: this.options.keys,
        claimed: true,
        closing: this.closing.signal,
      });
      outcome = { ok: true };
    } catch (error) {
      outcome = { ok: false, error };
    }
    try {
      // Not added (Redis refused): enqueue failed, so the producer hands the job over again.
      if (
        !(await added.then(
          () => true,
          () => false,
        ))
      )
        return;
      if (outcome.ok) {
        await this.queue(job.name).remove(id);
        return;
      }
      const { error } = outcome;
      if (error instanceof JobDeferredError) {
        await this.settleBackUp(job, id, envelope, inFlightDelay(error));
        return;
      }
      const final = isPermanent(error) || job.retry.attempts <= 1;
      if (!final) metrics.jobRetries.inc({ job_name: job.name });
      const marked: JobEnvelope & LocalOutcome = {
        ...envelope,
        pre: 1,
        ...(final ? { failed: errorText(error) } : {}),
      };
      await this.settleBackUp(job, id, marked, final ? 0 : backoffDelay(job.retry, 1));
    } catch {
      // The back-up stays due after the lease; its attempt finds the key done, or runs it again.
    }
  }

  private add(job: JobDefinition<TSchema>, id: string, data: JobEnvelope, delay: number | undefined) {
    return this.queue(job.name).add(job.name, data, {
      jobId: id,
      attempts: job.retry.attempts,
      backoff: { type: BACKOFF_TYPE },
      ...(delay ? { delay } : {}),
    });
  }

  /**
   * Puts the back-up of a first attempt that did not succeed in the state its next attempt needs. A
   * relayed attempt can fail before the producer's back-up (added alongside the offer) landed in Redis;
   * left to that back-up, attempt 1 would run again after the lease. So it is added from here, already
   * marked; BullMQ then ignores the producer's add of the same id.
   */
  private async settleBackUp(
    job: JobDefinition<TSchema>,
    id: string,
    data: JobEnvelope & LocalOutcome,
    delay: number,
  ): Promise<void> {
    const queue = this.queue(job.name);
    let bullJob = await queue.getJob(id);
    if (!bullJob) {
      await this.add(job, id, data, delay);
      bullJob = await queue.getJob(id);
      // Ours, unless the producer's add landed in between: BullMQ kept that one and ignored ours.
      if (!bullJob || isDeepStrictEqual(bullJob.data, data)) return;
    }
    await bullJob.updateData(data);
    await bullJob.changeDelay(delay);
  }

  /** Every queue this process enqueues to or works on; BullMQ counts in Redis, so all processes see it. */
  async depth(): Promise<QueueDepth[]> {
    const names = new Set([...this.queues.keys(), ...this.local.keys()]);
    return Promise.all(
      [...names].map(async (name) => {
        const counts = await this.queue(name).getJobCounts('wait', 'delayed', 'prioritized', 'active');
        const { active = 0, ...rest } = counts;
        const waiting = Object.values(rest).reduce((sum, n) => sum + n, 0);
        return { job: name, waiting, running: active };
      }),
    );
  }

  process<S extends TSchema>(job: JobDefinition<S>, handler: JobHandler<S>, policy: QueuePolicy): Processor {
    // The retry counter of every job processed here exists from the start, at 0 (a PromQL rate needs it).
    metrics.jobRetries.inc({ job_name: job.name }, 0);
    const worker = new Worker(
      job.name,
      async (bullJob: Job, token?: string) => {
        const envelope = bullJob.data as JobEnvelope & LocalOutcome;
        const attempt = bullJob.attemptsMade + 1 + (envelope.pre ?? 0);
        if (envelope.failed !== undefined) {
          // Its last attempt ran in the enqueuing process (runLocal): only the dead letter is left.
          await this.recordDeadLetter({
            name: job.name,
            id: bullJob.id ?? '',
            idempotencyKey: envelope.key,
            payload: envelope.payload,
            attempts: envelope.pre ?? 1,
            error: envelope.failed,
            failedAt: new Date().toISOString(),
          });
          throw new UnrecoverableError(envelope.failed);
        }
        try {
          return await runAttempt(job, handler, envelope, {
            jobId: bullJob.id ?? '',
            attempt,
            keys: this.options.keys,
            closing: this.closing.signal,
          });
        } catch (error) {
          if (error instanceof JobDeferredError) {
            // Back to delayed until the other claim's lease ends; BullMQ counts no attempt for this.
            await bullJob.moveToDelayed(Date.now() + inFlightDelay(error), token);
            throw new DelayedError();
          }
          const permanent = isPermanent(error);
          if (permanent || attempt >= job.retry.attempts) {
            await this.recordDeadLetter({
              name: job.name,
              id: bullJob.id ?? '',
              idempotencyKey: envelope.key,
              payload: envelope.payload,
              attempts: attempt,
              error: errorText(error),
              failedAt: new Date().toISOString(),
            });
          }
          // UnrecoverableError also at the last attempt: BullMQ's count may lag ours by the local one.
          if (permanent || attempt >= job.retry.attempts) throw new UnrecoverableError(errorText(error));
          metrics.jobRetries.inc({ job_name: job.name });
          throw error;
        }
      },
      {
        connection: this.redis,
        prefix: this.prefix,
        concurrency: policy.concurrency,
        ...(policy.limiter
          ? { limiter: { max: policy.limiter.max, duration: policy.limiter.durationMs } }
          : {}),
        removeOnComplete: { age: Math.ceil(policy.keepCompletedMs / 1000), count: policy.keepMaxJobs },
        removeOnFail: { age: Math.ceil(policy.keepFailedMs / 1000), count: policy.keepMaxJobs },
        ...(this.options.lockDurationMs ? { lockDuration: this.options.lockDurationMs } : {}),
        ...(this.options.stalledIntervalMs ? { stalledInterval: this.options.stalledIntervalMs } : {}),
        settings: {
          backoffStrategy: (
            attemptsMade: number,
            _type?: string,
            _err?: Error,
            bullJob?: { data: unknown },
          ) =>
            backoffDelay(job.retry, attemptsMade + ((bullJob?.data as LocalOutcome | undefined)?.pre ?? 0)),
        },
      },
    );
    // Connection errors are retried by ioredis; an unhandled 'error' event would crash the process.
    worker.on('error', () => {});
    this.workers.add(worker);
    const lane: LocalLane = {
      job: job as unknown as JobDefinition<TSchema>,
      handler: handler as unknown as JobHandler<TSchema>,
      policy,
      running: 0,
    };
    this.local.set(job.name, lane);
    // Offers from producers in other processes (a rules worker apart from the notifier) start here too.
    const serving = this.options.relay
      ?.serve(job.name, (data) => this.takeOffer(lane, data))
      .catch(() => undefined); // no relay connection: those producers queue their jobs instead
    return {
      close: async () => {
        // Not awaited: a relay still waiting for its first connection has nothing to undo yet.
        void serving?.then((stop) => stop?.());
        if (this.local.get(job.name) === lane) this.local.delete(job.name);
        this.workers.delete(worker);
        await Promise.allSettled([worker.close(), ...this.localRuns]);
      },
    };
  }

  startsClaimed(name: string): boolean {
    return (this.local.has(name) || this.options.relay !== undefined) && !this.closing.signal.aborted;
  }

  private async recordDeadLetter(letter: DeadLetter): Promise<void> {
    const key = this.deadLetterKey(letter.name);
    await this.redis
      .multi()
      .lpush(key, JSON.stringify(letter))
      .ltrim(key, 0, (this.options.maxDeadLetters ?? 10_000) - 1)
      .exec();
  }

  async deadLetters(name: string, limit = 100): Promise<DeadLetter[]> {
    const items = await this.redis.lrange(this.deadLetterKey(name), 0, limit - 1);
    return items.map((item) => JSON.parse(item) as DeadLetter);
  }

  /** Waits until BullMQ's connections are ready (tests, start-up checks). */
  async ready(): Promise<void> {
    await this.redis.ping();
  }

  /** Lets running attempts finish (BullMQ's graceful close), then releases the connections. */
  async close(): Promise<void> {
    await this.options.relay?.close();
    this.local.clear();
    await Promise.allSettled([...[...this.workers].map((w) => w.close()), ...this.localRuns]);
    this.workers.clear();
    this.closing.abort(new Error('job queue closed'));
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Deletes every Redis key under `prefix:` (test clean-up). */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
  return deleted;
}

/** When BullMQ saw one kept job (epoch ms): added (`timestamp`), taken by a worker, finished. */
export interface BullmqJobTimes {
  id: string;
  idempotencyKey: string;
  addedAt: number;
  processedAt: number | null;
  finishedAt: number | null;
}

/**
 * The times of the completed jobs still kept under `prefix` for one job name, read from BullMQ's job
 * hashes (diagnostics and benchmarks; nothing on the job path records anything extra for this).
 */
export async function readBullmqJobTimes(
  url: string,
  prefix: string,
  name: string,
): Promise<BullmqJobTimes[]> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const ids = await redis.zrange(`${prefix}:${name}:completed`, 0, -1);
    const out: BullmqJobTimes[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const pipeline = redis.pipeline();
      for (const id of chunk)
        pipeline.hmget(`${prefix}:${name}:${id}`, 'data', 'timestamp', 'processedOn', 'finishedOn');
      const replies = (await pipeline.exec()) ?? [];
      replies.forEach(([error, value], j) => {
        if (error || !Array.isArray(value)) return;
        const [data, timestamp, processedOn, finishedOn] = value as (string | null)[];
        if (!data || !timestamp) return;
        out.push({
          id: chunk[j] as string,
          idempotencyKey: (JSON.parse(data) as JobEnvelope).key,
          addedAt: Number(timestamp),
          processedAt: processedOn ? Number(processedOn) : null,
          finishedAt: finishedOn ? Number(finishedOn) : null,
        });
      });
    }
    return out;
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}

/** What an offer carries: the job id in BullMQ (its back-up) and the envelope the attempt runs. */
interface Offer {
  id: string;
  envelope: JobEnvelope;
}

function encodeOffer(offer: Offer): Uint8Array {
  return Buffer.from(JSON.stringify(offer));
}

function decodeOffer(data: Uint8Array): Offer {
  return JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as Offer;
}
