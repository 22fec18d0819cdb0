import type { Static, TSchema } from 'typebox';

/** Exponential backoff: attempt n (1-based) waits `delayMs * 2^(n-1)` before the next, capped at maxDelayMs. */
export interface RetryPolicy {
  /** Total attempts including the first (1 = no retry). */
  attempts: number;
  delayMs: number;
  maxDelayMs?: number;
}

/**
 * One entry of a job catalogue (STYLE 11): name, version, payload schema, timeout, retry policy and the
 * idempotency key a payload is known by. Define entries with `defineJob` and register them in one list.
 */
export interface JobDefinition<S extends TSchema = TSchema> {
  readonly name: string;
  /** Bumped when the payload shape changes; a worker refuses (dead-letters) jobs of another version. */
  readonly version: number;
  readonly payload: S;
  /** An attempt running longer fails with a JobTimeoutError (and is retried like any failure). */
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** Same key = same job: enqueued once, and its side effect runs once (see JobKeyStore). */
  idempotencyKey(payload: Static<S>): string;
}

export function defineJob<S extends TSchema>(definition: JobDefinition<S>): JobDefinition<S> {
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(definition.name)) {
    throw new Error(`job name ${JSON.stringify(definition.name)}: lower-case letters, digits, . _ - only`);
  }
  if (!Number.isInteger(definition.retry.attempts) || definition.retry.attempts < 1) {
    throw new Error(`job ${definition.name}: retry.attempts must be a positive integer`);
  }
  return definition;
}

export type JobPayload<J> = J extends JobDefinition<infer S> ? Static<S> : never;

/** What a handler learns about the attempt it runs. */
export interface JobContext {
  readonly jobId: string;
  readonly name: string;
  readonly idempotencyKey: string;
  /** 1-based number of this attempt. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** True when a failure of this attempt sends the job to the dead-letter list. */
  readonly isLastAttempt: boolean;
  /**
   * True when no earlier attempt can have started this key's side effect: the first attempt, and the
   * key store's claim was new (not taken over from an attempt that died). False without a key store.
   * A handler may then skip looking up what earlier attempts already delivered.
   */
  readonly firstRun: boolean;
  /** Aborted when the attempt times out or the queue closes. */
  readonly signal: AbortSignal;
}

export type JobHandler<S extends TSchema> = (payload: Static<S>, ctx: JobContext) => Promise<unknown>;

/** Queue policy of one processor (STYLE 12): kept in a config file beside the processor. */
export interface QueuePolicy {
  /** Jobs of this name one worker runs at once. */
  concurrency: number;
  /** At most `max` jobs started per `durationMs` per worker process (BullMQ: per queue). */
  limiter?: { max: number; durationMs: number };
  /** Completed jobs kept (and so their keys deduplicated at enqueue) for this long. */
  keepCompletedMs: number;
  /** Failed jobs kept in the queue's own failed set for this long (dead letters are kept apart). */
  keepFailedMs: number;
  /**
   * At most this many completed (and, separately, failed) jobs are kept, whatever their age, so memory
   * (in-process) and Redis stay bounded under a burst; the idempotency key store still stops repeats.
   */
  keepMaxJobs: number;
}

export interface EnqueueOptions {
  delayMs?: number;
  /**
   * The caller claimed the job's key itself (`claimJobKeys`) in a transaction that has committed, so
   * no attempt can have started the side effect yet. When this process runs the job's processor
   * with a free slot, the first attempt starts at once in this process under that claim (no claim round
   * trip, no pick-up by the queue); else, BullMQ with a relay (`FirstAttemptRelay`), in a process that
   * runs it and takes the offer. The queue still holds the job until that attempt settles (BullMQ: as a
   * delayed back-up that a crash leaves behind). When nobody takes it the adapter gives the claim back
   * (`JobKeyStore.release`) and queues the job as without the option. Never set it for a
   * key this caller did not newly claim: the attempt would run without checking the key.
   */
  claimed?: boolean;
}

export interface EnqueueResult {
  /** Queue-level id (derived from the idempotency key). */
  id: string;
  idempotencyKey: string;
}

/** A job whose last attempt failed, or that was refused (bad payload, unknown version). */
export interface DeadLetter {
  name: string;
  id: string;
  idempotencyKey: string;
  payload: unknown;
  attempts: number;
  error: string;
  failedAt: string;
}

export interface Processor {
  close(): Promise<void>;
}

/** The job queue port: an in-process adapter (embedded profile) and BullMQ on Redis (distributed). */
export interface QueueDepth {
  job: string;
  waiting: number;
  running: number;
}

export interface JobQueue {
  readonly kind: 'in-process' | 'bullmq';
  /**
   * Validates the payload against the job's schema (throws JobPayloadError, nothing queued) and adds it
   * under its idempotency key; a key already queued, running or kept as completed is not added again.
   */
  enqueue<S extends TSchema>(
    job: JobDefinition<S>,
    payload: Static<S>,
    options?: EnqueueOptions,
  ): Promise<EnqueueResult>;
  /** Starts consuming jobs of this definition in this process. */
  process<S extends TSchema>(job: JobDefinition<S>, handler: JobHandler<S>, policy: QueuePolicy): Processor;
  /**
   * True when a job of this name enqueued with `claimed` can start at once: a processor is open in this
   * process, or (BullMQ) a relay offers it to processes elsewhere. Then a caller may claim keys itself and
   * enqueue with `claimed` (the rules worker does).
   */
  startsClaimed(name: string): boolean;
  /** Dead letters of one job name, newest first. */
  deadLetters(name: string, limit?: number): Promise<DeadLetter[]>;
  /** Jobs waiting (due, delayed or waiting for a retry) and running, per job name with any (/metrics). */
  depth(): Promise<QueueDepth[]>;
  /** Resolves when the queue can take jobs (BullMQ: Redis answers a PING); readiness checks ask it. */
  ready(): Promise<void>;
  /** Stops the processors (waiting for running attempts) and releases connections. */
  close(): Promise<void>;
}

export class JobPayloadError extends Error {
  override readonly name = 'JobPayloadError';
  constructor(
    readonly job: string,
    readonly problems: string[],
  ) {
    super(`payload of job ${job} is invalid: ${problems.join('; ')}`);
  }
}

export class JobTimeoutError extends Error {
  override readonly name = 'JobTimeoutError';
  constructor(job: string, timeoutMs: number) {
    super(`job ${job} timed out after ${timeoutMs} ms`);
  }
}

/** Thrown by a handler for a failure that no retry can fix: the job is dead-lettered at once. */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

/**
 * The job cannot run now and should come back after `retryAfterMs`, without counting an attempt (a
 * handler throws it when, say, its channel's rate limit is used up: waiting is not failing). The
 * adapters put the job back (BullMQ: moveToDelayed) and release its key claim.
 */
export class JobDeferredError extends Error {
  override readonly name: string = 'JobDeferredError';
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

/**
 * The idempotency key is held by an attempt that has neither finished nor expired (another worker, or a
 * worker that died mid-job). The adapters put the job back until the claim's lease runs out without
 * counting an attempt: a crash must not use up the retries of the job that takes over.
 */
export class JobInFlightError extends JobDeferredError {
  override readonly name = 'JobInFlightError';
  constructor(key: string, retryAfterMs: number) {
    super(`job key ${key} is being run by another attempt (lease ends in ${retryAfterMs} ms)`, retryAfterMs);
  }
}
