/**
 * Idempotency keys of jobs (job_keys, migration 0003): a job's attempt claims its key before its side
 * effect and marks it done after. @iot/jobs builds its key store on these statements (coalescing,
 * answers per key); a producer claims keys inside its own transaction with `insertJobKeys`.
 */
import type { Queryable } from '../db';

export interface JobKeyClaimRow {
  key: string;
  /** This statement claimed the key (inserted it or took a stale claim over). */
  claimed: boolean;
  /** Inserted rather than taken over; null when not claimed. */
  inserted: boolean | null;
  completedAt: Date | null;
  result: unknown;
  /** What is left of the holder's lease, as the row was before the statement. */
  remainingMs: number | null;
}

/**
 * Claims `keys` (sorted by the caller: two workers then take the unique-index entries in the same order,
 * no deadlock) with a lease of `leaseMs`: insert, or take over a stale unfinished claim; two workers
 * racing get one row each way because the row lock of ON CONFLICT serialises them. `xmax = 0` tells a new
 * row from a taken-over one. The LEFT JOIN reads the statement's snapshot, i.e. the rows as they were
 * before it: for a key not claimed here, whether it is done or whose lease runs when.
 */
export async function claimJobKeyRows(
  q: Queryable,
  keys: readonly { key: string; jobName: string }[],
  leaseMs: number,
): Promise<JobKeyClaimRow[]> {
  const { rows } = await q.query<{
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
    [JSON.stringify(keys.map(({ key, jobName }, ord) => ({ key, job_name: jobName, ord }))), leaseMs],
  );
  return rows.map((r) => ({
    key: r.key,
    claimed: r.claimed,
    inserted: r.inserted,
    completedAt: r.completed_at,
    result: r.result,
    remainingMs: r.remaining_ms,
  }));
}

/** Marks keys done with their job's result, in one statement. */
export async function completeJobKeys(
  q: Queryable,
  items: readonly { key: string; result: unknown }[],
): Promise<void> {
  await q.query(
    `UPDATE job_keys k SET completed_at = now(), result = i.result
       FROM jsonb_to_recordset($1::jsonb) AS i(key text, result jsonb)
      WHERE k.key = i.key`,
    [JSON.stringify(items.map(({ key, result }) => ({ key, result: result ?? null })))],
  );
}

/** Gives unfinished claims back (a failed attempt), so the retry can claim at once. */
export async function releaseJobKeys(q: Queryable, keys: readonly string[]): Promise<void> {
  await q.query('DELETE FROM job_keys WHERE key = ANY($1::text[]) AND completed_at IS NULL', [keys]);
}

/**
 * Inserts keys not yet in job_keys (one statement, in the caller's transaction) and returns those
 * inserted; a key already there is left alone. `keys` sorted by the caller, like claimJobKeyRows's.
 * The claim's lease runs from the transaction's start (`created_at` default now()).
 */
export async function insertJobKeys(
  q: Queryable,
  keys: readonly { key: string; jobName: string }[],
): Promise<Set<string>> {
  const { rows } = await q.query<{ key: string }>(
    `INSERT INTO job_keys (key, job_name)
       SELECT i.key, i.job_name FROM jsonb_to_recordset($1::jsonb) AS i(key text, job_name text, ord int) ORDER BY i.ord
     ON CONFLICT (key) DO NOTHING
     RETURNING key`,
    [JSON.stringify(keys.map(({ key, jobName }, ord) => ({ key, job_name: jobName, ord })))],
  );
  return new Set(rows.map((r) => r.key));
}

/** Deletes expired keys (`expires_at` passed); run it now and then. Returns how many went. */
export async function purgeExpiredJobKeys(q: Queryable): Promise<number> {
  const { rowCount } = await q.query('DELETE FROM job_keys WHERE expires_at < now()');
  return rowCount;
}
