import type { RetryPolicy } from './types';

/** Delay before the attempt after `attempt` (1-based): delayMs * 2^(attempt-1), capped at maxDelayMs. */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const delay = policy.delayMs * 2 ** Math.max(0, attempt - 1);
  return Math.min(delay, policy.maxDelayMs ?? Number.POSITIVE_INFINITY);
}
