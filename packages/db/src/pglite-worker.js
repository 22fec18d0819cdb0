/**
 * PGlite's thread: the entry of the `worker_threads` worker that `openPglite` starts (see pglite-client.ts
 * for the protocol and README "PGlite in a worker thread"). Plain JavaScript on purpose: a worker needs a
 * file Node can run as is, under vitest and tsx (TypeScript sources) as well as from a tsup bundle.
 *
 * Requests from the main thread: { id, op, ... } with op
 *   query { sql, params, tx? } -> { rows, rowCount }
 *   exec  { sql, tx? }         -> undefined
 *   begin {}                   -> its own id, once PGlite's BEGIN ran; statements name it as `tx` and may
 *                                 follow at once (they wait here for BEGIN)
 *   commit { tx } / rollback { tx } -> undefined, once PGlite's COMMIT / ROLLBACK ran
 *   close {}                   -> undefined, once PGlite is closed; the worker then ends
 * Replies: { id, result } or { id, error } (see serialiseError). The first message is { ready: true } or
 * { ready: false, error } after PGlite.create.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
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
 * Starts transaction `id`. The main thread does not wait for BEGIN: it sends the transaction's first
 * statement right behind `begin`, which waits here until PGlite's BEGIN ran. So PGlite, which holds its
 * one connection for the whole transaction, does not sit idle for a round trip to a busy main thread.
 */
function begin(id) {
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
  inFlight.add(settled);
  settled.finally(() => inFlight.delete(settled));
}

function end(id, tx, commit) {
  const open = transactions.get(tx);
  if (!open || open.endId !== undefined) return fail(id, new Error('Transaction is closed'));
  open.endId = id;
  if (open.finish) open.finish(commit);
  else open.endEarly = commit;
}

async function run(message) {
  switch (message.op) {
    case 'query': {
      const result = await (await target(message.tx)).query(message.sql, message.params);
      // PGlite reports affected rows for DML only; for a SELECT the row count is the number of rows.
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
    }
    case 'exec':
      await (await target(message.tx)).exec(message.sql);
      return undefined;
    default:
      throw new Error(`unknown PGlite worker request ${String(message.op)}`);
  }
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
  if (op === 'begin') return begin(id);
  if (op === 'commit' || op === 'rollback') return end(id, message.tx, op === 'commit');
  if (op === 'close') return void close(id);
  const work = run(message).then(
    (result) => reply(id, result),
    (error) => fail(id, error),
  );
  inFlight.add(work);
  work.finally(() => inFlight.delete(work));
});

parentPort.postMessage({ ready: true });
