import type { Queryable } from '@iot/db';

export type ClaimResult =
  | { state: 'claimed' }
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
 */
export function createDbJobKeyStore(db: Queryable): JobKeyStore {
  return {
    async claim(key, jobName, leaseMs) {
      // One statement: insert, or take over a stale unfinished claim; two workers racing get one row each
      // way because the row lock of ON CONFLICT serialises them.
      const claimed = await db.query(
        `INSERT INTO job_keys (key, job_name) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET created_at = now()
           WHERE job_keys.completed_at IS NULL
             AND job_keys.created_at < now() - make_interval(secs => $3::double precision / 1000)
         RETURNING key`,
        [key, jobName, leaseMs],
      );
      if (claimed.rowCount > 0) return { state: 'claimed' };
      const { rows } = await db.query<{ completed_at: Date | null; result: unknown; remaining_ms: number }>(
        `SELECT completed_at, result,
           greatest(0, extract(epoch FROM created_at - now()) * 1000 + $2::double precision)::float8 AS remaining_ms
         FROM job_keys WHERE key = $1`,
        [key, leaseMs],
      );
      const row = rows[0];
      if (row?.completed_at) return { state: 'done', result: row.result };
      // Gone between the two statements (released by a failed attempt): try again soon.
      return { state: 'busy', retryAfterMs: Math.ceil(row?.remaining_ms ?? 0) };
    },
    async complete(key, result) {
      await db.query('UPDATE job_keys SET completed_at = now(), result = $2::jsonb WHERE key = $1', [
        key,
        JSON.stringify(result ?? null),
      ]);
    },
    async release(key) {
      await db.query('DELETE FROM job_keys WHERE key = $1 AND completed_at IS NULL', [key]);
    },
  };
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
      return { state: 'claimed' };
    },
    async complete(key, result) {
      keys.set(key, { claimedAt: Date.now(), done: true, result });
    },
    async release(key) {
      if (!keys.get(key)?.done) keys.delete(key);
    },
  };
}

/** Deletes expired keys (`expires_at` passed); run it now and then. Returns how many went. */
export async function purgeExpiredJobKeys(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM job_keys WHERE expires_at < now()');
  return rowCount;
}
