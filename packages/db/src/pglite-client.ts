/**
 * The embedded `Db` with PGlite in a `worker_threads` worker (pglite-worker.js), so that its statements,
 * which are synchronous WebAssembly, no longer block the main thread's event loop. The main thread sends
 * each statement as a message and receives the rows already parsed (int8 -> number, date -> text, in the
 * worker; a `Date` survives structured cloning); it only deserialises them.
 *
 * Same behaviour as PGlite in the thread (pglite.ts, `thread: 'main'`):
 * - one connection: a plain query waits until a running transaction ends, concurrent transactions are
 *   serialised (PGlite's own mutex does it, in the worker);
 * - transactions are interactive: BEGIN runs in the worker and PGlite's transaction stays open there while
 *   `fn` sends its statements one by one; COMMIT when `fn` resolves, ROLLBACK when it throws;
 * - errors arrive as the same built-in class with the same message and own properties (PostgreSQL's
 *   `code`, `detail`, `constraint`, ... and PGlite's `name: 'error'`, `query`, `params`);
 * - the tx guard (tx-guard.ts) works as before: it lives on the main thread.
 * A worker that dies (crash, `terminate`) rejects every pending call and every later one with an error
 * that says so, instead of leaving them waiting.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db, Queryable, QueryResult } from './db';
import { transactionHandle } from './pipeline';
import { assertNotInTransaction, runInTransactionContext, statementsOutsideTransactions } from './tx-guard';

interface SerialisedError {
  type: string;
  message: string;
  stack: string | undefined;
  props: Record<string, unknown>;
}

type Reply = { id: number; result?: unknown; error?: SerialisedError };
/** A NOTIFY on a channel the worker listens to (Db.listen). */
type Notification = { notify: string; payload: string };
type Ready = { ready: true } | { ready: false; error: SerialisedError };

// Not in the ES lib this package compiles against, but always there in Node.
const wasm = (globalThis as unknown as { WebAssembly: { RuntimeError: new (message: string) => Error } })
  .WebAssembly;

const ERROR_TYPES: Record<string, new (message: string) => Error> = {
  Error,
  RangeError,
  TypeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
  // PGlite's WebAssembly failing (e.g. `unreachable` on a data directory it cannot read).
  RuntimeError: wasm.RuntimeError,
};

function rebuildError(serialised: SerialisedError): Error {
  const error = new (ERROR_TYPES[serialised.type] ?? Error)(serialised.message);
  Object.assign(error, serialised.props);
  if (serialised.stack !== undefined) error.stack = serialised.stack;
  return error;
}

/**
 * The worker's script. From the sources (vitest, tsx) it lies beside this module. In a tsup bundle
 * (apps/.../dist/main.js) `import.meta.url` is the bundle's, so it is taken from the @iot/db package,
 * which every app reaches through node_modules (npm workspaces), like its external dependencies.
 */
export function pgliteWorkerUrl(): URL {
  const beside = new URL('./pglite-worker.js', import.meta.url);
  if (beside.protocol === 'file:' && existsSync(beside)) return beside;
  return pathToFileURL(createRequire(import.meta.url).resolve('@iot/db/pglite-worker.js'));
}

/** The worker behind a Db opened by openPgliteWorker (tests use it to kill the worker). */
const workers = new WeakMap<Db, Worker>();
export function pgliteWorkerOf(db: Db): Worker | undefined {
  return workers.get(db);
}

export interface PgliteWorkerOptions {
  dataDir?: string;
  /**
   * Called once when the worker dies after it was open (not on close): every call fails from then on, so
   * the process that owns the database should stop (apps/platform exits and leaves the restart to its
   * supervisor) instead of answering every request with an error.
   */
  onLost?: (error: Error) => void;
}

export async function openPgliteWorker(options: PgliteWorkerOptions = {}): Promise<Db> {
  const worker = new Worker(pgliteWorkerUrl(), {
    workerData: { dataDir: options.dataDir },
    // Plain JavaScript: no loader (tsx, vitest) needed in there.
    execArgv: [],
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  /** Set once the worker is gone or closing: every call from then on is rejected with it. */
  let unavailable: (() => Error) | undefined;
  let closing: Promise<void> | undefined;
  /** Set once the worker answered ready: a death before that is the open's error, not a loss. */
  let opened = false;

  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  let uncaught: Error | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    const onReady = (message: Ready) => {
      if (message.ready) resolve();
      else reject(rebuildError(message.error));
    };
    worker.once('message', onReady);
    worker.once('exit', (code) => {
      worker.off('message', onReady);
      const why = uncaught ? `: ${uncaught.message}` : '';
      reject(
        new Error(`PGlite worker exited with code ${code} while opening the database${why}`, {
          cause: uncaught,
        }),
      );
    });
  });

  function failAll(error: () => Error): void {
    unavailable ??= error;
    for (const call of pending.values()) call.reject(error());
    pending.clear();
  }

  worker.on('error', (error) => {
    uncaught = error;
    // An uncaught exception ended the worker ('exit' follows).
    failAll(
      () =>
        new Error(`PGlite worker failed (${error.message}); the database is unavailable`, { cause: error }),
    );
  });
  worker.on('messageerror', (error) => {
    // A reply that cannot be deserialised leaves its call without an answer: give up on the worker.
    failAll(() => new Error('PGlite worker sent a message that cannot be read', { cause: error }));
    void worker.terminate();
  });
  worker.on('exit', (code) => {
    failAll(() =>
      closing
        ? new Error('PGlite is closed')
        : new Error(`PGlite worker exited unexpectedly with code ${code}; the database is unavailable`),
    );
    if (!closing && opened && unavailable) options.onLost?.(unavailable());
  });

  await ready;
  opened = true;
  /** Db.listen's channels: their subscribers, and the worker's LISTEN (a later subscriber waits for it). */
  const channels = new Map<
    string,
    { subscribers: Set<(payload: string) => void>; listening: Promise<void> }
  >();
  worker.on('message', (reply: Reply | Notification) => {
    if ('notify' in reply) {
      for (const subscriber of channels.get(reply.notify)?.subscribers ?? []) subscriber(reply.payload);
      return;
    }
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    // An idle worker does not keep the process alive, as PGlite in the thread would not.
    if (pending.size === 0) worker.unref();
    if (reply.error) call.reject(rebuildError(reply.error));
    else call.resolve(reply.result);
  });
  worker.unref();

  /** Sends one request; `id` names it (a transaction is named by the id of its `begin`). */
  function send<T>(message: Record<string, unknown>): { id: number; reply: Promise<T> } {
    const id = nextId++;
    if (unavailable) return { id, reply: Promise.reject(unavailable()) };
    const reply = new Promise<T>((resolve, reject) => {
      // A parameter that cannot be cloned (a function, a symbol) throws DataCloneError here.
      worker.postMessage({ ...message, id });
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (pending.size === 1) worker.ref();
    });
    return { id, reply };
  }
  const call = <T>(message: Record<string, unknown>): Promise<T> => send<T>(message).reply;

  function handle(tx: number | undefined): Queryable {
    return {
      query: <R>(sql: string, params?: readonly unknown[]) =>
        call<QueryResult<R>>({ op: 'query', sql, params, tx }),
      exec: (sql: string) => call<void>({ op: 'exec', sql, tx }),
    };
  }
  const direct = handle(undefined);

  const db: Db = {
    kind: 'pglite',
    ...statementsOutsideTransactions(() => db, direct),
    async transaction(fn, options) {
      assertNotInTransaction(db, 'transaction');
      // fn runs at once: its first statement follows `begin` and waits in the worker for BEGIN (which
      // waits for the transactions admitted before it), so PGlite does not wait for this thread in between.
      const { id: tx, reply: begun } = send<number>(
        options?.priority ? { op: 'begin', priority: options.priority } : { op: 'begin' },
      );
      begun.catch(() => undefined);
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await runInTransactionContext(db, () => fn(transactionHandle(handle(tx), true)));
        // A BEGIN that failed fails the statements too; this catches it when fn sent none.
        await begun;
      } catch (error) {
        // The callback's error is what the caller needs; a failed ROLLBACK (worker gone) adds nothing.
        await call({ op: 'rollback', tx }).catch(() => undefined);
        throw error;
      }
      await call({ op: 'commit', tx });
      return result;
    },
    async batch(statements) {
      assertNotInTransaction(db, 'batch');
      return call({ op: 'batch', statements });
    },
    // Calls sent and not answered: the first runs on the one connection, the rest wait for it.
    connections: () => ({
      inUse: pending.size > 0 ? 1 : 0,
      total: 1,
      waiting: Math.max(0, pending.size - 1),
    }),
    /**
     * LISTEN in PGlite's one session. A notification arrives once the transaction that sent it committed;
     * there is no connection to lose, so `onReconnected` is never called.
     */
    async listen(channel, onNotification) {
      let entry = channels.get(channel);
      if (!entry) {
        entry = { subscribers: new Set(), listening: call<void>({ op: 'listen', channel }) };
        channels.set(channel, entry);
      }
      const { subscribers, listening } = entry;
      // Its own function, so the same callback subscribed twice is two subscriptions.
      const subscriber = (payload: string) => onNotification(payload);
      subscribers.add(subscriber);
      const leave = () => {
        subscribers.delete(subscriber);
        if (subscribers.size > 0 || channels.get(channel) !== entry) return false;
        channels.delete(channel);
        return true;
      };
      try {
        await listening;
      } catch (error) {
        leave();
        throw error;
      }
      return async () => {
        if (leave()) await call<void>({ op: 'unlisten', channel }).catch(() => undefined);
      };
    },
    close() {
      closing ??= (async () => {
        if (!unavailable) {
          const closed = call<void>({ op: 'close' });
          unavailable = () => new Error('PGlite is closed');
          try {
            await closed;
          } finally {
            // The worker ends by itself once PGlite is closed; terminate one that does not.
            const timer = setTimeout(() => void worker.terminate(), 5000);
            await exited;
            clearTimeout(timer);
          }
        } else {
          await worker.terminate();
        }
      })();
      return closing;
    },
  };
  workers.set(db, worker);
  return db;
}
