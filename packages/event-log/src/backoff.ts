import type { RetryPolicy } from './types';

export const defaultRetry: RetryPolicy = { initialMs: 100, maxMs: 30_000 };

/** Wait before redelivery attempt `attempt` (1 = first retry): doubling, capped. */
export function retryDelay(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, attempt - 1));
}

export function resolveRetry(retry: Partial<RetryPolicy> | undefined): RetryPolicy {
  return { ...defaultRetry, ...retry };
}

/** Sleeps `ms`, or less when the signal aborts (stop() must not wait out a 30 s backoff). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
