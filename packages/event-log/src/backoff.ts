import type { RetryPolicy, SubscribeOptions } from './types';

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

/** Calls the subscriber's error listener; a listener that throws must not stop the delivery loop. */
export function reportError(
  listener: SubscribeOptions['onError'],
  error: unknown,
  info: Parameters<NonNullable<SubscribeOptions['onError']>>[1],
): void {
  try {
    listener?.(error, info);
  } catch {
    // The listener's own failure has nowhere better to go than being dropped.
  }
}
