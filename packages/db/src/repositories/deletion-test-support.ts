import type { Queryable } from '../db';

// Shared by the tests of the tables without foreign keys (device-data-deletion.test.ts,
// device-logs-deletion.test.ts): rows to delete, a signal between two sessions, and a wait for one of
// them to block.

export async function insertCompany(q: Queryable, name: string): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    'INSERT INTO companies (name) VALUES ($1) RETURNING id::int',
    [name],
  );
  return rows[0]?.id ?? 0;
}

export async function insertDevice(q: Queryable, companyId: number): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    "INSERT INTO devices (company_id, name) VALUES ($1, 'd') RETURNING id::int",
    [companyId],
  );
  return rows[0]?.id ?? 0;
}

/** Resolves once `n` sessions of this database wait for a lock (PostgreSQL only). */
export async function untilWaitingForLocks(q: Queryable, n: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await q.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((rows[0]?.waiting ?? 0) >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${n} sessions came to wait for a lock`);
}

/** A promise and the function that resolves it: one session tells another how far it got. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
