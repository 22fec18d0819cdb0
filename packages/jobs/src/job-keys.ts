import { claimJobKeyRows, completeJobKeys, insertJobKeys, type Queryable, releaseJobKeys } from '@iot/db';
import { coalesce } from '@iot/runtime';

export type ClaimResult =
  /**
   * The attempt holds the key. `fresh`: the key was new, so no earlier attempt can have started the
   * side effect; false when a stale claim (an attempt that died) was taken over.
   */
  | { state: 'claimed'; fresh: boolean }
  /** The side effect already ran: the attempt is a repeat and does nothing. */
  | { state: 'done'; result: unknown }
  /** Another attempt holds the key; its lease runs out in `retryAfterMs`. */
  | { state: 'busy'; retryAfterMs: number };

/**
 * Idempotency of side effects, independent of the queue: an attempt claims the job's key before its
 * side effect and marks it done after. A repeat of a finished job (the same key enqueued again after
 * the queue forgot it, a redelivery after a crash past the side effect) finds it done and skips. A claim
 * whose attempt died (worker killed) runs out after its lease and is taken over, so nothing is lost.
 */
export interface JobKeyStore {
  claim(key: string, jobName: string, leaseMs: number): Promise<ClaimResult>;
  complete(key: string, result: unknown): Promise<void>;
  /** Gives the key back after a failed attempt, so the retry can claim it at once. */
  release(key: string): Promise<void>;
}

/**
 * JobKeyStore on the `job_keys` table (migration 0003), same SQL on PostgreSQL and PGlite. `created_at`
 * is the time of the latest claim; a claim older than the lease without `completed_at` is stale.
 *
 * Claims, completions and releases of concurrent attempts are coalesced (coalesce.ts): one statement
 * for all claims that arrive while the previous one runs, so a notifier running 64 jobs at once makes a
 * handful of round trips instead of 64 (on PGlite every round trip waits for its one connection).
 */
export function createDbJobKeyStore(db: Queryable): JobKeyStore {
  const claims = coalesce<{ key: string; jobName: string; leaseMs: number }, ClaimResult>(async (items) => {
    // One statement per lease (in practice one job name per batch); a key asked twice in one batch
    // is claimed once: the repeats see it busy (or done, like the first).
    const answers = new Map<string, ClaimResult>();
    const byLease = new Map<number, Map<string, string>>();
    for (const { key, jobName, leaseMs } of items) {
      const keys = byLease.get(leaseMs) ?? new Map<string, string>();
      keys.set(key, jobName);
      byLease.set(leaseMs, keys);
    }
    for (const [leaseMs, keys] of byLease) {
      // Sorted keys: two workers' batches take the unique-index entries in the same order (no deadlock).
      const input = [...keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const rows = await claimJobKeyRows(
        db,
        input.map(([key, jobName]) => ({ key, jobName })),
        leaseMs,
      );
      for (const row of rows) {
        if (row.claimed) answers.set(row.key, { state: 'claimed', fresh: row.inserted === true });
        else if (row.completedAt) answers.set(row.key, { state: 'done', result: row.result });
        // Gone in between (released by a failed attempt, or inserted by a concurrent statement this
        // one's snapshot does not show): look again soon.
        else answers.set(row.key, { state: 'busy', retryAfterMs: Math.ceil(row.remainingMs ?? 0) });
      }
    }
    const given = new Set<string>();
    return items.map(({ key, leaseMs }) => {
      const answer = answers.get(key) ?? { state: 'busy', retryAfterMs: 0 };
      if (answer.state !== 'claimed') return answer;
      if (given.has(key)) return { state: 'busy', retryAfterMs: leaseMs };
      given.add(key);
      return answer;
    });
  });
  const completions = coalesce<{ key: string; result: unknown }, void>(async (items) => {
    await completeJobKeys(db, items);
    return items.map(() => undefined);
  });
  const releases = coalesce<string, void>(async (keys) => {
    await releaseJobKeys(db, keys);
    return keys.map(() => undefined);
  });
  return {
    claim: (key, jobName, leaseMs) => claims({ key, jobName, leaseMs }),
    complete: (key, result) => completions({ key, result }),
    release: (key) => releases(key),
  };
}

/**
 * Claims keys inside the caller's transaction (one statement), before the jobs are enqueued with
 * `claimed: true`: the producer's commit and the claim are one, so the job's first attempt needs no
 * claim round trip of its own. Returns the keys newly claimed; a key already in job_keys (a batch
 * redelivered, a repeat) is left alone and must be enqueued without `claimed`. The claim's lease runs
 * from the transaction's start (`created_at` default now()), like any claim.
 */
export async function claimJobKeys(
  tx: Queryable,
  items: readonly { key: string; jobName: string }[],
): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  // Sorted keys, the order createDbJobKeyStore's claims take them in: no deadlock between the two.
  const input = [...new Map(items.map((i) => [i.key, i.jobName]))].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return insertJobKeys(
    tx,
    input.map(([key, jobName]) => ({ key, jobName })),
  );
}

/** JobKeyStore in memory: for a queue without a database (tests, tools). Not shared across processes. */
export function createMemoryJobKeyStore(): JobKeyStore {
  const keys = new Map<string, { claimedAt: number; done: boolean; result: unknown }>();
  return {
    async claim(key, _jobName, leaseMs) {
      const entry = keys.get(key);
      if (entry?.done) return { state: 'done', result: entry.result };
      if (entry && Date.now() - entry.claimedAt < leaseMs) {
        return { state: 'busy', retryAfterMs: entry.claimedAt + leaseMs - Date.now() };
      }
      keys.set(key, { claimedAt: Date.now(), done: false, result: undefined });
      return { state: 'claimed', fresh: entry === undefined };
    },
    async complete(key, result) {
      keys.set(key, { claimedAt: Date.now(), done: true, result });
    },
    async release(key) {
      if (!keys.get(key)?.done) keys.delete(key);
    },
  };
}
