import { AsyncLocalStorage } from 'node:async_hooks';
import type { Queryable } from './db';

/**
 * Remembers which databases the current async context holds a transaction on. PGlite has a single
 * connection: a `db.query` or `db.transaction` issued from inside `db.transaction(fn)` waits for the
 * transaction that is waiting for it, and hangs forever. Detecting it turns that hang into an error that
 * names the fix (use the `tx` handed to `fn`). The postgres implementation uses the same guard so that code
 * written against one implementation behaves the same on the other.
 */
const open = new AsyncLocalStorage<ReadonlySet<object>>();

export function assertNotInTransaction(db: object, what: string): void {
  if (open.getStore()?.has(db)) {
    throw new Error(
      `${what} called on the Db from inside its own transaction; use the transaction handle passed to the callback`,
    );
  }
}

export function runInTransactionContext<T>(db: object, fn: () => Promise<T>): Promise<T> {
  const outer = open.getStore();
  return open.run(new Set([...(outer ?? []), db]), fn);
}

/**
 * A Db's own `query` and `exec`: `direct` runs them, refused (assertNotInTransaction) while the caller is
 * inside one of that Db's transactions. `db` is read when a statement runs, so the Db object may be the
 * one these methods are spread into.
 */
export function statementsOutsideTransactions(
  db: () => object,
  direct: Queryable,
): Pick<Queryable, 'query' | 'exec'> {
  return {
    async query(sql, params) {
      assertNotInTransaction(db(), 'query');
      return direct.query(sql, params);
    },
    async exec(sql) {
      assertNotInTransaction(db(), 'exec');
      return direct.exec(sql);
    },
  };
}
