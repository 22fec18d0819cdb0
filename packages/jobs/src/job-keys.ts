import type { Queryable } from '@iot/db';
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
      // One statement: insert, or take over a stale unfinished claim; two workers racing get one row
      // each way because the row lock of ON CONFLICT serialises them. `xmax = 0` tells a new row
      // from a taken-over one. The LEFT JOIN reads the statement's snapshot, i.e. the rows as they
      // were before it: for a key not claimed here, whether it is done or whose lease runs when.
      const { rows } = await db.query<{
        key: string;
        claimed: boolean;
        inserted: boolean | null;
        completed_at: Date | null;
        result: unknown;
        remaining_ms: number | null;
      }>(
        `WITH input AS (
             SELECT i.key, i.job_name, i.ord FROM jsonb_to_recordset($1::jsonb) AS i(key text, job_name text, ord int)
           ), claimed AS (
             INSERT INTO job_keys (key, job_name) SELECT key, job_name FROM input ORDER BY ord
             ON CONFLICT (key) DO UPDATE SET created_at = now()
               WHERE job_keys.completed_at IS NULL
                 AND job_keys.created_at < now() - make_interval(secs => $2::double precision / 1000)
             RETURNING key, (xmax = 0) AS inserted
           )
           SELECT i.key, c.key IS NOT NULL AS claimed, c.inserted, k.completed_at, k.result,
                  greatest(0, extract(epoch FROM k.created_at - now()) * 1000 + $2::double precision)::float8
                    AS remaining_ms
             FROM input i
             LEFT JOIN claimed c ON c.key = i.key
             LEFT JOIN job_keys k ON k.key = i.key`,
        [JSON.stringify(input.map(([key, job_name], ord) => ({ key, job_name, ord }))), leaseMs],
      );
      for (const row of rows) {
        if (row.claimed) answers.set(row.key, { state: 'claimed', fresh: row.inserted === true });
        else if (row.completed_at) answers.set(row.key, { state: 'done', result: row.result });
        // Gone in between (released by a failed attempt, or inserted by a concurrent statement this
        // one's snapshot does not show): look again soon.
        else answers.set(row.key, { state: 'busy', retryAfterMs: Math.ceil(row.remaining_ms ?? 0) });
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
    await db.query(
      `UPDATE job_keys k SET completed_at = now(), result = i.result
         FROM jsonb_to_recordset($1::jsonb) AS i(key text, result jsonb)
        WHERE k.key = i.key`,
      [JSON.stringify(items.map(({ key, result }) => ({ key, result: result ?? null })))],
    );
    return items.map(() => undefined);
  });
  const releases = coalesce<string, void>(async (keys) => {
    await db.query('DELETE FROM job_keys WHERE key = ANY($1::text[]) AND completed_at IS NULL', [keys]);
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
  const { rows } = await tx.query<{ key: string }>(
    `INSERT INTO job_keys (key, job_name)
       SELECT i.key, i.job_name FROM jsonb_to_recordset($1::jsonb) AS i(key text, job_name text, ord int) ORDER BY i.ord
     ON CONFLICT (key) DO NOTHING
     RETURNING key`,
    [JSON.stringify(input.map(([key, job_name], ord) => ({ key, job_name, ord })))],
  );
  return new Set(rows.map((r) => r.key));
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

/** Deletes expired keys (`expires_at` passed); run it now and then. Returns how many went. */
export async function purgeExpiredJobKeys(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM job_keys WHERE expires_at < now()');
  return rowCount;
}
