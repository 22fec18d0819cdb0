import { AsyncLocalStorage } from 'node:async_hooks';

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
