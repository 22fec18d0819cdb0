import { mkdirSync } from 'node:fs';
import type { Db, Queryable, QueryResult } from './db';
import { openPgliteWorker } from './pglite-client';
import { transactionHandle } from './pipeline';
import { assertNotInTransaction, runInTransactionContext, statementsOutsideTransactions } from './tx-guard';
import { DATE_OID, INT8_OID, parseDate, parseInt8 } from './types';

export interface PgliteOptions {
  /** Directory that holds the database files; undefined keeps the database in memory. */
  dataDir?: string;
  /**
   * Where PGlite runs: 'worker' (the default) in a worker thread, so that its statements do not block this
   * thread's event loop (pglite-client.ts); 'main' in this thread, as before (for comparisons and tests).
   */
  thread?: 'worker' | 'main';
  /** Worker only: the worker died after opening (see PgliteWorkerOptions.onLost). */
  onLost?: (error: Error) => void;
}

interface PgliteLike {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

function wrap(conn: PgliteLike): Queryable {
  return {
    async query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      const result = await conn.query<R>(sql, params as unknown[] | undefined);
      // PGlite reports affected rows for DML only; for a SELECT the row count is the number of rows.
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await conn.exec(sql);
    },
  };
}

/**
 * Opens PGlite, in memory or in `dataDir`, in a worker thread unless `thread: 'main'`. PGlite is one
 * connection: it runs every `query` and `transaction` under one internal mutex, so concurrent transactions
 * are serialised and a plain query waits until a running transaction ends instead of landing inside it
 * (tested in pglite.test.ts, in both threads).
 */
export async function openPglite(options: PgliteOptions = {}): Promise<Db> {
  // PGlite creates the data directory itself but not its parents (DATA_DIR on a first start).
  if (options.dataDir !== undefined) mkdirSync(options.dataDir, { recursive: true });
  if (options.thread !== 'main') {
    return openPgliteWorker({
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.onLost ? { onLost: options.onLost } : {}),
    });
  }
  // int8[] needs no parser of its own: PGlite parses array elements with the element type's parser.
  // Loaded only here: with the worker (and on PostgreSQL) this thread never loads PGlite at all.
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create({
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    parsers: { [INT8_OID]: parseInt8, [DATE_OID]: parseDate },
  });
  const direct = wrap(pglite);
  const db: Db = {
    kind: 'pglite',
    ...statementsOutsideTransactions(() => db, direct),
    async transaction(fn) {
      assertNotInTransaction(db, 'transaction');
      // PGlite's own transaction: BEGIN, COMMIT when fn resolves, ROLLBACK when it throws, all under its mutex.
      return pglite.transaction((tx) =>
        runInTransactionContext(db, () => fn(transactionHandle(wrap(tx), true))),
      );
    },
    close: () => pglite.close(),
  };
  return db;
}
