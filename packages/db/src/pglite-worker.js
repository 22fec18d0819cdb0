/**
 * PGlite's thread: the entry of the `worker_threads` worker that `openPglite` starts (see pglite-client.ts
 * for the protocol and README "PGlite in a worker thread"). Plain JavaScript on purpose: a worker needs a
 * file Node can run as is, under vitest and tsx (TypeScript sources) as well as from a tsup bundle.
 *
 * Requests from the main thread: { id, op, ... } with op
 *   query { sql, params, tx? } -> { rows, rowCount }
 *   exec  { sql, tx? }         -> undefined
 *   begin { priority? }        -> its own id, once PGlite's BEGIN ran; statements name it as `tx` and may
 *                                 follow at once (they wait here for BEGIN); `priority: 'high'` goes before
 *                                 every waiting transaction and plain statement without it (see admit)
 *   commit { tx } / rollback { tx } -> undefined, once PGlite's COMMIT / ROLLBACK ran
 *   batch { statements: [{ sql, params }] } -> [{ rows, rowCount }], the statements run in one transaction
 *                                 of their own, none waiting for the main thread (Db.batch)
 *   close {}                   -> undefined, once PGlite is closed; the worker then ends
 *   listen { channel } / unlisten { channel } -> undefined, once PGlite's LISTEN / UNLISTEN ran
 * Replies: { id, result } or { id, error } (see serialiseError). The first message is { ready: true } or
 * { ready: false, error } after PGlite.create. A notification on a channel listened to comes as
 * { notify: channel, payload }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
// The same parsers as the in-thread PGlite and pg (types.ts), run here so rows cross already converted.
import { parseDate, parseInt8 } from './value-parsers.js';

/** Own properties of an error that survive structured cloning (PostgreSQL fields, query, params). */
function cloneableProps(error) {
  const props = {};
  for (const [key, value] of Object.entries(error)) {
    // queryOptions holds the parser functions; a value that cannot be cloned is dropped, not fatal.
    if (key === 'queryOptions' || typeof value === 'function') continue;
    try {
      structuredClone(value);
      props[key] = value;
    } catch {}
  }
  return props;
}

/**
 * An error as plain data: the main thread rebuilds it as the same built-in class (Error, RangeError, ...)
 * with the same message, stack and own properties (PGlite's DatabaseError: name 'error', code, detail,
 * constraint, severity, ...).
 */
function serialiseError(error) {
  if (!(error instanceof Error))
    return { type: 'Error', message: String(error), stack: undefined, props: {} };
  return {
    type: error.constructor?.name ?? 'Error',
    message: error.message,
    stack: error.stack,
    props: cloneableProps(error),
  };
}

const dataDir = workerData?.dataDir;
let pglite;
try {
  pglite = await PGlite.create({
    ...(dataDir === undefined ? {} : { dataDir }),
    // int8[] needs no parser of its own: PGlite parses array elements with the element type's parser.
    parsers: { 20: parseInt8, 1082: parseDate },
  });
} catch (error) {
  parentPort.postMessage({ ready: false, error: serialiseError(error) });
  process.exit(1);
}

/** Open transactions by the id of their `begin`: PGlite's handle and how to end its callback. */
const transactions = new Map();
/** Statements and transactions under way, so that close waits for them. */
const inFlight = new Set();
let closing = false;

const ROLLBACK = Symbol('rollback');
/** Channels listened to: PGlite's unsubscribe function by channel. */
const listening = new Map();

function reply(id, result) {
  parentPort.postMessage({ id, result });
}
function fail(id, error) {
  parentPort.postMessage({ id, error: serialiseError(error) });
}

/** PGlite's handle of transaction `tx`, once its BEGIN ran (statements may arrive before that). */
async function target(tx) {
  if (tx === undefined) return pglite;
  const open = transactions.get(tx);
  // PGlite's own words for a statement on an ended transaction.
  if (!open || open.endId !== undefined) throw new Error('Transaction is closed');
  return open.handle ?? (await open.opened);
}

/**
 * Work waiting for PGlite's one connection, in two lanes. PGlite's own mutex is first come, first served;
 * here the transactions that carry an alarm to its notification (the rules worker's batches,
 * `priority: 'high'`) go before the work waiting beside them: the storage writer's batches, the notifier's
 * bookkeeping, and plain statements outside transactions (the API's reads, the maintenance pass's VACUUM
 * and ANALYZE, each up to a few hundred milliseconds). So an alarm waits at most for the one piece of work
 * PGlite runs, not for everything queued before it. The rest keeps its order. One piece is handed to
 * PGlite at a time, which is all PGlite runs anyway.
 */
const waiting = { high: [], normal: [] };
let running = false;

/** Queues `start` (which resolves once its work ended, whichever way) in its lane. */
function admit(priority, start) {
  (priority === 'high' ? waiting.high : waiting.normal).push(() =>
    start().finally(() => {
      running = false;
      admitNext();
    }),
  );
  admitNext();
}

function admitNext() {
  if (running) return;
  const next = waiting.high.shift() ?? waiting.normal.shift();
  if (!next) return;
  running = true;
  next();
}

/**
 * Starts transaction `id` once admitted. The main thread does not wait for BEGIN: it sends the
 * transaction's first statement right behind `begin`, which waits here until PGlite's BEGIN ran. So
 * PGlite, which holds its one connection for the whole transaction, does not sit idle for a round trip to
 * a busy main thread.
 */
function begin(id, priority) {
  let finished;
  // close() waits for queued transactions too: it ends them early, they run BEGIN and ROLLBACK.
  const done = new Promise((resolve) => {
    finished = resolve;
  });
  inFlight.add(done);
  done.finally(() => inFlight.delete(done));
  const open = startable(id);
  admit(priority, () => open.start().finally(finished));
}

/** Transaction `id`, registered so that its statements can wait for it; `start` runs its BEGIN. */
function startable(id) {
  let opened;
  let notOpened;
  const open = {
    handle: undefined,
    opened: new Promise((resolve, reject) => {
      opened = resolve;
      notOpened = reject;
    }),
    /** Ends PGlite's callback: commit (true) or rollback (false); set once BEGIN ran. */
    finish: undefined,
    /** An end asked for before BEGIN ran. */
    endEarly: undefined,
    endId: undefined,
  };
  open.opened.catch(() => {});
  transactions.set(id, open);
  open.start = () => runTransaction(open, id, opened, notOpened);
  return open;
}

/** Runs admitted transaction `id`; resolves when it ended, whichever way. */
function runTransaction(open, id, opened, notOpened) {
  // PGlite's transaction: BEGIN under its mutex (a plain query waits for the whole transaction), then
  // the callback holds it open until the main thread sends commit (resolve) or rollback (reject).
  const done = pglite.transaction(
    (handle) =>
      new Promise((resolve, reject) => {
        open.handle = handle;
        open.finish = (commit) => (commit ? resolve() : reject(ROLLBACK));
        opened(handle);
        reply(id, id);
        if (open.endEarly !== undefined) open.finish(open.endEarly);
      }),
  );
  const settled = done.then(
    () => {
      transactions.delete(id);
      reply(open.endId, undefined);
    },
    (error) => {
      transactions.delete(id);
      if (!open.handle) {
        // BEGIN itself failed: the callback never ran; statements waiting for it fail with its error.
        notOpened(error);
        if (open.endId !== undefined) fail(open.endId, error);
        return fail(id, error);
      }
      if (error === ROLLBACK) return reply(open.endId, undefined);
      fail(open.endId, error);
    },
  );
  return settled;
}

function end(id, tx, commit) {
  const open = transactions.get(tx);
  if (!open || open.endId !== undefined) return fail(id, new Error('Transaction is closed'));
  open.endId = id;
  if (open.finish) open.finish(commit);
  else open.endEarly = commit;
}

/** PGlite reports affected rows for DML only; for a SELECT the row count is the number of rows. */
function queryResult(result) {
  return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
}

/**
 * A transaction whose statements are all known up front (Db.batch): BEGIN, the statements and COMMIT run
 * here one after another, so PGlite's one connection is never held open waiting for a busy main thread to
 * send the next statement or the COMMIT (an interactive transaction waits for two such round trips).
 */
async function runBatch(statements) {
  const results = [];
  await pglite.transaction(async (handle) => {
    for (const { sql, params } of statements) {
      const result = canPrepare
        ? await runQuery(sql, params ?? [], BATCH)
        : await handle.query(sql, params ?? []);
      results.push(queryResult(result));
    }
  });
  return results;
}

async function run(message) {
  switch (message.op) {
    case 'query':
      return queryResult(await runQuery(message.sql, message.params ?? [], message.tx));
    case 'batch':
      return runBatch(message.statements);
    case 'exec':
      await (await target(message.tx)).exec(message.sql);
      // DDL may change what a prepared statement returns ("cached plan must not change result type").
      forgetPreparedStatements();
      return undefined;
    case 'listen':
      // PGlite hands a NOTIFY to its listeners once the transaction that sent it committed, whichever
      // way the statements ran (its message parser does it for every protocol exchange).
      if (!listening.has(message.channel)) {
        const channel = message.channel;
        listening.set(
          channel,
          await pglite.listen(channel, (payload) => parentPort.postMessage({ notify: channel, payload })),
        );
      }
      return undefined;
    case 'unlisten': {
      const unlisten = listening.get(message.channel);
      listening.delete(message.channel);
      if (unlisten) await unlisten();
      return undefined;
    }
    default:
      throw new Error(`unknown PGlite worker request ${String(message.op)}`);
  }
}

/**
 * Statements as named prepared statements, one protocol round into PGlite per execution.
 *
 * PGlite's `query()` enters its WebAssembly backend six times per statement (Parse, Describe, Bind,
 * Describe, Execute, Sync, each a separate `execProtocol`) and parses and plans the SQL every time: about
 * 1 ms for `SELECT $1::int` and 0.5 to 1.2 ms of planning for the rules worker's joins (measured here,
 * 2026-11-21). The platform sends the same few hundred SQL texts over and over, so each text is prepared
 * once (Parse and Describe: its parameter types) and every execution is a single message: Bind, Describe,
 * Execute and Sync together. Parameters are serialised by PGlite's own serialisers for the described types
 * and the rows parsed by its own `parseResults`, so values come back as from `query()`.
 */
const MAX_PREPARED = 1000;
/** Command tags of statements that change the schema. */
const DDL_TAG = /^(CREATE|ALTER|DROP|COMMENT|GRANT|REVOKE|REINDEX|CLUSTER)\b/;
/** SQL text -> { name, types }, least recently used first. */
const prepared = new Map();
/** Names no longer in `prepared` whose backend statements are still to be closed (outside a transaction). */
const stale = [];
let nextStatement = 1;
const { serialize } = protocol;
// PGlite internals this relies on (0.3): without them statements go through `query()` as before.
const canPrepare =
  typeof pglite._runExclusiveTransaction === 'function' &&
  typeof pglite.runExclusive === 'function' &&
  typeof pglite.execProtocol === 'function' &&
  typeof parse?.parseResults === 'function' &&
  typeof serialize?.bind === 'function';

function forgetPreparedStatements() {
  for (const { name } of prepared.values()) stale.push(name);
  prepared.clear();
}

/** The prepared statement for `sql`, preparing it (and closing stale ones outside a transaction) first. */
async function statementFor(sql, inTransaction) {
  const known = prepared.get(sql);
  if (known) {
    prepared.delete(sql);
    prepared.set(sql, known);
    return known;
  }
  if (!inTransaction && stale.length > 0) {
    const names = stale.splice(0);
    await pglite.execProtocol(
      Buffer.concat([...names.map((name) => serialize.close({ type: 'S', name })), serialize.sync()]),
      { syncToFs: false, throwOnError: false },
    );
  }
  const name = `iot_${nextStatement++}`;
  const { messages } = await pglite.execProtocol(
    Buffer.concat([
      serialize.parse({ name, text: sql, types: [] }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]),
    { syncToFs: false },
  );
  const types = parse.parseDescribeStatementResults(messages);
  const statement = { name, types };
  prepared.set(sql, statement);
  if (prepared.size > MAX_PREPARED) {
    const [oldest, { name: evicted }] = prepared.entries().next().value;
    prepared.delete(oldest);
    stale.push(evicted);
  }
  return statement;
}

async function executePrepared(sql, params, inTransaction) {
  let statement;
  let messages;
  try {
    statement = await statementFor(sql, inTransaction);
    const { name, types } = statement;
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serialiseParam = pglite.serializers[types[i]];
      return serialiseParam ? serialiseParam(param) : param.toString();
    });
    ({ messages } = await pglite.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    ));
  } catch (error) {
    // PostgreSQL's errors carry the statement, as PGlite's query() reports them.
    if (typeof error?.code === 'string' && 'severity' in error) Object.assign(error, { query: sql, params });
    // A statement whose result type changed anyway is prepared anew next time.
    if (error?.code === '0A000' && statement && prepared.get(sql) === statement) {
      prepared.delete(sql);
      stale.push(statement.name);
    }
    throw error;
  }
  if (!inTransaction) await pglite.syncToFs();
  // DDL (CREATE, ALTER, DROP ...) may change what other prepared statements return: prepare anew.
  if (messages.some((m) => m.name === 'commandComplete' && DDL_TAG.test(m.text))) forgetPreparedStatements();
  return parse.parseResults(messages, pglite.parsers)[0];
}

/** Stands for the transaction runBatch runs in (it holds PGlite's transaction itself). */
const BATCH = Symbol('batch');

/** One statement, in transaction `tx` or on its own (after the transactions before it, as `query()`). */
async function runQuery(sql, params, tx) {
  if (!canPrepare) return (await target(tx)).query(sql, params);
  if (tx !== undefined) {
    if (tx !== BATCH) await target(tx);
    return pglite.runExclusive(() => executePrepared(sql, params, true));
  }
  return pglite._runExclusiveTransaction(() =>
    pglite.runExclusive(() => executePrepared(sql, params, false)),
  );
}

async function close(id) {
  closing = true;
  for (const [tx, open] of transactions) if (open.endId === undefined) end(null, tx, false);
  await Promise.allSettled([...inFlight]);
  try {
    await pglite.close();
    reply(id, undefined);
  } catch (error) {
    fail(id, error);
  }
  parentPort.close();
}

parentPort.on('message', (message) => {
  const { id, op } = message;
  if (closing) return fail(id, new Error('PGlite is closed'));
  if (op === 'begin') return begin(id, message.priority);
  if (op === 'commit' || op === 'rollback') return end(id, message.tx, op === 'commit');
  if (op === 'close') return void close(id);
  const execute = () =>
    run(message).then(
      (result) => reply(id, result),
      (error) => fail(id, error),
    );
  // A statement of a transaction runs in it (the transaction holds the connection); a plain statement
  // waits in the normal lane like a transaction of its own.
  const work =
    message.tx === undefined && (op === 'query' || op === 'exec' || op === 'batch')
      ? new Promise((resolve) => admit(undefined, () => execute().finally(resolve)))
      : execute();
  inFlight.add(work);
  work.finally(() => inFlight.delete(work));
});

parentPort.postMessage({ ready: true });
