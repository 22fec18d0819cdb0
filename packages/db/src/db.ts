/**
 * The one database interface the platform codes against. Two implementations run the same SQL:
 * PostgreSQL through `pg` (distributed profile) and PGlite, PostgreSQL compiled to WASM (embedded profile).
 * Result value types are the same on both; see `types.ts` (ids are numbers, timestamps are `Date`).
 */
export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /**
   * Runs a script of one or more statements without parameters (migrations, DDL). `query` takes exactly
   * one statement: PGlite sends it with the extended protocol, which refuses several.
   */
  exec(sql: string): Promise<void>;
}

/** One statement with its parameters (Db.batch). */
export interface Statement {
  sql: string;
  params?: readonly unknown[];
}

/** The results of `Transaction.pipeline`'s steps, in their order. */
export type StepResults<T extends readonly (() => Promise<unknown>)[]> = {
  -readonly [K in keyof T]: Awaited<ReturnType<T[K]>>;
};

/** The handle `Db.transaction` hands its callback. */
export interface Transaction extends Queryable {
  /**
   * Runs `steps` (each sends one or more statements of this transaction) in their order and resolves with
   * their results. On PGlite every step starts at once: its worker runs a transaction's statements in the
   * order they arrive, so each statement follows the previous one without waiting for its reply, and
   * PGlite does not sit idle on its one connection for a round trip to a busy main thread. On PostgreSQL
   * each step starts when the previous one ended (node-postgres must not be sent a second query on a
   * client whose first is running; its round trip is short). The first failure in step order rejects; the
   * later steps, failing on the aborted transaction, are waited for so that none rejects unheard.
   */
  pipeline<const T extends readonly (() => Promise<unknown>)[]>(steps: T): Promise<StepResults<T>>;
  /**
   * PostgreSQL: the same connection's statements as named prepared statements (parsed once per connection,
   * planned once under a generic plan), for the few hot reads that ask for it (`readAsTenant`). PGlite's
   * worker prepares every statement anyway and has none.
   */
  prepared?: Queryable;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction; it commits when `fn` resolves and rolls back when it throws.
   * Inside `fn` use only `tx`: calling this `Db` again from inside throws (on PGlite it would wait forever).
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `statements`, none of which needs another's result, in one transaction of their own and resolves
   * with their results in order; the first failure rolls back and rejects. PGlite in its worker thread
   * only: the worker runs BEGIN, the statements and COMMIT without waiting for this thread, whose round
   * trips would otherwise hold the one connection idle (`readAsTenant`). Absent elsewhere.
   */
  batch?(statements: readonly Statement[]): Promise<QueryResult<Record<string, unknown>>[]>;
  /**
   * LISTEN to `channel`; resolves once the LISTEN is in effect. PostgreSQL: on a dedicated connection;
   * notifications sent while it was down are lost, so `onLost` runs when the connection is found lost
   * (it failed, ended, or left a heartbeat unanswered) and `onReconnected` after every reconnect, and the
   * subscriber can drop what it derived from them. PGlite in its worker thread: in its one session, with
   * nothing to lose or reconnect (absent with `thread: 'main'`). Closing the Db ends it.
   */
  listen?(
    channel: string,
    onNotification: (payload: string) => void,
    onReconnected?: () => void,
    onLost?: () => void,
  ): Promise<Unlisten>;
  /** Connections now (/metrics): PGlite has one, in use while a call is out; PostgreSQL's pool. */
  connections?(): ConnectionStats;
  close(): Promise<void>;
}

export interface ConnectionStats {
  /** Running a statement or transaction. */
  inUse: number;
  /** Open (PGlite: 1). */
  total: number;
  /** Callers queued for a connection. */
  waiting: number;
}

export interface TransactionOptions {
  /**
   * `high`: on PGlite, whose one connection runs one transaction or statement at a time, this transaction
   * goes before every waiting transaction and plain statement without it (pglite-worker.js, packages/db
   * README "Two lanes"): the rules worker's batches, which carry an alarm to its notification, do not
   * queue behind the storage writer's bulk writes or the maintenance pass. PostgreSQL runs transactions
   * side by side on its pool and ignores it.
   */
  priority?: 'high';
}

/** Stops one subscription of `Db.listen`. */
export type Unlisten = () => Promise<void>;
