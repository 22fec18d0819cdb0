import type { Db, Queryable, QueryResult, Statement, Transaction } from './db';

/** The NOLOGIN role row-level security policies apply to (migration 0006). */
export const TENANT_ROLE = 'iot_tenant';

const SET_TENANT = "SELECT set_config('app.company_id', $1, true), set_config('role', $2, true)";

function assertCompanyId(companyId: number): void {
  if (!Number.isSafeInteger(companyId) || companyId <= 0) {
    throw new RangeError(`withTenant needs a positive integer company id, got ${String(companyId)}`);
  }
}

/**
 * Runs `fn` in one transaction as the tenant `companyId`: the role switches to iot_tenant and
 * app.company_id is set, both LOCAL to the transaction, so row-level security shows and accepts only that
 * company's rows, whatever the queries inside say. Both settings end with the transaction, so a pooled
 * connection goes back clean. Repositories still filter by company: this is the second wall, against a
 * forgotten WHERE clause, not a sandbox for untrusted SQL (which could RESET ROLE).
 */
export async function withTenant<T>(
  db: Db,
  companyId: number,
  fn: (tx: Transaction) => Promise<T>,
): Promise<T> {
  assertCompanyId(companyId);
  return inTenant(db, { sql: SET_TENANT, params: [String(companyId), TENANT_ROLE] }, fn);
}

function inTenant<T>(db: Db, settings: Statement, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    // One statement; set_config(..., true) is SET LOCAL, and setting 'role' is SET ROLE. Pipelined: on
    // PGlite fn's first statement follows it without waiting for its reply (a round trip per read, issue
    // #29). Nothing runs outside the tenant: a failed set_config aborts the transaction, so every
    // statement after it fails too.
    const [, result] = await tx.pipeline([() => tx.query(settings.sql, settings.params), () => fn(tx)]);
    return result;
  });
}

export interface ReadOptions {
  /**
   * PGlite keeps each SQL text prepared; PostgreSQL plans a prepared statement anew for each execution
   * while it judges plans for the given values cheaper than one generic plan. For a statement whose plan
   * does not depend on its values (the device list page: its planning took half its time, issue #29),
   * `genericPlan` plans it once. PostgreSQL's own statements are unnamed and planned every time.
   */
  genericPlan?: boolean;
}

/** The tenant's two settings and the plan choice, LOCAL to the read's transaction. */
const SET_TENANT_READ =
  "SELECT set_config('app.company_id', $1, true), set_config('role', $2, true), set_config('plan_cache_mode', $3, true)";

/**
 * Runs the reads of `fn` as the tenant `companyId`, with the same two walls as `withTenant`. On PGlite in
 * its worker (Db.batch) every statement is a transaction of its own that the worker runs from BEGIN to
 * COMMIT without waiting for this thread: an interactive transaction holds PGlite's one connection idle
 * for a round trip to the main thread between statements and before COMMIT, which under load cost more
 * than the reads themselves (issue #29). The statements then see the same as in one READ COMMITTED
 * transaction (each takes its own snapshot there too). Elsewhere `fn` runs in `withTenant`. Reads only:
 * nothing of one statement (a temporary table, a lock) lasts into the next.
 */
export async function readAsTenant<T>(
  db: Db,
  companyId: number,
  fn: (q: Queryable) => Promise<T>,
  options: ReadOptions = {},
): Promise<T> {
  assertCompanyId(companyId);
  const tenant = [String(companyId), TENANT_ROLE, options.genericPlan ? 'force_generic_plan' : 'auto'];
  const { batch } = db;
  if (!batch) {
    // PostgreSQL plans an unnamed statement every time: a generic plan needs a prepared one.
    return inTenant(db, { sql: SET_TENANT_READ, params: tenant }, (tx) =>
      fn(options.genericPlan && tx.prepared ? tx.prepared : tx),
    );
  }
  const reader: Queryable = {
    async query<R>(sql: string, params?: readonly unknown[]) {
      const [, result] = await batch.call(db, [
        { sql: SET_TENANT_READ, params: tenant },
        { sql, params: params ?? [] },
      ]);
      return result as unknown as QueryResult<R>;
    },
    exec: () => Promise.reject(new Error('readAsTenant runs reads only; use withTenant')),
  };
  return fn(reader);
}
