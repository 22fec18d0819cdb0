import type { Db, Transaction } from './db';

/** The NOLOGIN role row-level security policies apply to (migration 0006). */
export const TENANT_ROLE = 'iot_tenant';

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
  if (!Number.isSafeInteger(companyId) || companyId <= 0) {
    throw new RangeError(`withTenant needs a positive integer company id, got ${String(companyId)}`);
  }
  return db.transaction(async (tx) => {
    // One statement; set_config(..., true) is SET LOCAL, and setting 'role' is SET ROLE. Pipelined: on
    // PGlite fn's first statement follows it without waiting for its reply (a round trip per read, issue
    // #29). Nothing runs outside the tenant: a failed set_config aborts the transaction, so every
    // statement after it fails too.
    const [, result] = await tx.pipeline([
      () =>
        tx.query("SELECT set_config('app.company_id', $1, true), set_config('role', $2, true)", [
          String(companyId),
          TENANT_ROLE,
        ]),
      () => fn(tx),
    ]);
    return result;
  });
}
