import type { Queryable } from '../db';

/**
 * The logs a retention pass trims, oldest first: device logs (decode failures, rule decisions, alarms,
 * downlink reports) and the notification log (every delivery attempt). Both grow with every uplink or
 * notification and nothing else ever deletes them; device data (the customer's measurements) is not
 * among them. Each has a BRIN index on `created_at` (migrations 0002 and 0025), so a pass that finds
 * nothing old reads the index summary and a few unsummarized pages, not the table.
 */
export const RETAINED_LOGS = ['device_logs', 'notification_log'] as const;
export type RetainedLog = (typeof RETAINED_LOGS)[number];

export interface PurgeExpiredLogsOptions {
  /** Entries created before this are deleted. */
  before: Date;
  /** Rows per statement (default 5000): each batch is its own short statement, so locks stay brief. */
  batchSize?: number;
  /** Stop starting new batches after this long (ms; default 2000); the next pass goes on. */
  budgetMs?: number;
  /** The clock of the budget (tests). */
  clock?: () => number;
}

/**
 * Deletes log entries older than `before`, across companies (the platform's own housekeeping, like
 * expireUnansweredDownlinks), in batches until a table has none left or the time budget is used up.
 * Several processes may run it at once: a batch skips rows another one has locked (SKIP LOCKED).
 * Returns the rows deleted per table.
 */
export async function purgeExpiredLogs(
  q: Queryable,
  options: PurgeExpiredLogsOptions,
): Promise<Record<RetainedLog, number>> {
  const batchSize = options.batchSize ?? 5000;
  const clock = options.clock ?? Date.now;
  const deadline = clock() + (options.budgetMs ?? 2000);
  const deleted: Record<RetainedLog, number> = { device_logs: 0, notification_log: 0 };
  for (const table of RETAINED_LOGS) {
    for (;;) {
      // The table name comes from RETAINED_LOGS, never from input.
      const { rows } = await q.query<{ n: number }>(
        `WITH gone AS (
           DELETE FROM ${table} WHERE id IN (
             SELECT id FROM ${table} WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
           RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [options.before, batchSize],
      );
      const n = rows[0]?.n ?? 0;
      deleted[table] += n;
      if (n < batchSize || clock() >= deadline) break;
    }
  }
  return deleted;
}
