import { setMaxListeners } from 'node:events';
import type { TSchema } from 'typebox';
import type { JobKeyStore } from './job-keys';
import {
  type JobContext,
  type JobDeferredError,
  type JobDefinition,
  type JobHandler,
  JobInFlightError,
  JobPayloadError,
  JobTimeoutError,
  PermanentJobError,
} from './types';
import { validatePayload } from './validate-payload';

/** What a queue stores for a job: the catalogue version, the idempotency key and the payload. */
export interface JobEnvelope {
  v: number;
  key: string;
  payload: unknown;
}

export interface AttemptOptions {
  jobId: string;
  attempt: number;
  keys: JobKeyStore | undefined;
  /**
   * The enqueuing transaction claimed the key (EnqueueOptions.claimed) and this is the attempt started
   * for it: no claim statement, the attempt counts as the key's first run.
   */
  claimed?: boolean;
  /** Aborted when the queue closes. */
  closing: AbortSignal;
}

/** How long a claimed key stays held by an attempt that never finished: twice the job's timeout. */
export function leaseMs(job: JobDefinition): number {
  return job.timeoutMs * 2;
}

export function isPermanent(error: unknown): boolean {
  return error instanceof PermanentJobError || error instanceof JobPayloadError;
}

/**
 * One attempt, the same in every adapter: check version and payload (failures are permanent: no retry),
 * claim the idempotency key, run the handler under the job's timeout, then mark the key done or give it
 * back. A timed-out attempt keeps its claim until the lease runs out, because its handler may still be
 * finishing a side effect in the background; a retry before then finds the key busy and tries later.
 */
export async function runAttempt<S extends TSchema>(
  job: JobDefinition<S>,
  handler: JobHandler<S>,
  envelope: JobEnvelope,
  options: AttemptOptions,
): Promise<unknown> {
  if (envelope.v !== job.version) {
    throw new PermanentJobError(
      `job ${job.name} version ${String(envelope.v)} is not the worker's version ${job.version}`,
    );
  }
  const payload = validatePayload(job, envelope.payload);
  const { keys } = options;
  let fresh = false;
  if (keys && options.claimed) {
    fresh = true;
  } else if (keys) {
    const claim = await keys.claim(envelope.key, job.name, leaseMs(job));
    if (claim.state === 'done') return claim.result;
    if (claim.state === 'busy') throw new JobInFlightError(envelope.key, claim.retryAfterMs);
    fresh = claim.fresh;
  }
  const controller = new AbortController();
  const onClose = () => controller.abort(options.closing.reason);
  // One listener per running attempt: a processor running 64 at once is not a leak.
  setMaxListeners(0, options.closing);
  options.closing.addEventListener('abort', onClose, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new JobTimeoutError(job.name, job.timeoutMs);
      controller.abort(error);
      reject(error);
    }, job.timeoutMs);
  });
  const ctx: JobContext = {
    jobId: options.jobId,
    name: job.name,
    idempotencyKey: envelope.key,
    attempt: options.attempt,
    maxAttempts: job.retry.attempts,
    isLastAttempt: options.attempt >= job.retry.attempts,
    firstRun: fresh && options.attempt === 1,
    signal: controller.signal,
  };
  try {
    const result = await Promise.race([handler(payload, ctx), timeout]);
    if (keys) await keys.complete(envelope.key, result ?? null);
    return result;
  } catch (error) {
    if (keys && !(error instanceof JobTimeoutError)) await keys.release(envelope.key);
    throw error;
  } finally {
    clearTimeout(timer);
    options.closing.removeEventListener('abort', onClose);
  }
}

/**
 * Wait before trying a deferred job again: a busy key until its lease ends (at least 100 ms), a
 * deferral as long as it asks (at least 10 ms); at most a minute.
 */
export function inFlightDelay(error: JobDeferredError): number {
  if (error instanceof JobInFlightError) return Math.min(60_000, Math.max(100, error.retryAfterMs + 50));
  return Math.min(60_000, Math.max(10, error.retryAfterMs));
}

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
