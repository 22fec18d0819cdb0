import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { openPglite } from './pglite';
import { pgliteWorkerOf } from './pglite-client';
import { deferred } from './repositories/deletion-test-support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A statement that keeps PGlite busy for a while (about 0.3 to 1 s here). */
const SLOW_SQL = 'SELECT count(*) FROM generate_series(1, 3000000) AS s(i) WHERE i % 7 = 0';

/** The error of `promise`, for comparing what callers see on both threads. */
async function errorOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

function fieldsOf(error: Error) {
  const { name, message, code, detail, constraint, severity, table, schema, hint, routine } = error as Error &
    Record<string, unknown>;
  return {
    // PGlite's DatabaseError class stays in the worker: here it is an Error with the same own fields.
    type: error instanceof RangeError ? 'RangeError' : error instanceof Error ? 'Error' : typeof error,
    name,
    message,
    code,
    detail,
    constraint,
    severity,
    table,
    schema,
    hint,
    routine,
  };
}

describe('PGlite in a worker thread', () => {
  const open: Db[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((db) => db.close()));
  });
  async function openBoth() {
    const worker = await openPglite();
    const main = await openPglite({ thread: 'main' });
    open.push(worker, main);
    return { worker, main };
  }

  it('runs PGlite off this thread, and the event loop keeps turning during a long statement', async () => {
    const db = await openPglite();
    open.push(db);
    expect(pgliteWorkerOf(db)).toBeDefined();
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 5);
    const started = performance.now();
    await db.query(SLOW_SQL);
    const took = performance.now() - started;
    clearInterval(timer);
    // In this thread the statement would hold the loop for all of `took` (0 or 1 tick).
    expect(took).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThan(took / 5 / 4);
  });

  it('reports PostgreSQL errors with the same class, message and fields as PGlite in the thread', async () => {
    const { worker, main } = await openBoth();
    for (const db of [worker, main]) {
      await db.exec(
        'CREATE TABLE u (id int PRIMARY KEY, email text UNIQUE); INSERT INTO u VALUES (1, $$a@example.test$$);',
      );
    }
    const cases: ((db: Db) => Promise<unknown>)[] = [
      (db) => db.query('INSERT INTO u VALUES ($1, $2)', [2, 'a@example.test']), // 23505
      (db) => db.query('INSERT INTO u VALUES (NULL, $1)', ['b']), // 23502
      (db) => db.query('SELEC 1'), // 42601
      (db) => db.query("SELECT '9007199254740993'::bigint"), // RangeError of the int8 parser
      (db) => db.exec('SELECT 1/0'), // 22012
      (db) =>
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO u VALUES ($1, $2)', [1, 'c']);
        }),
    ];
    for (const run of cases) {
      const [inWorker, inThread] = await Promise.all([errorOf(run(worker)), errorOf(run(main))]);
      expect(fieldsOf(inWorker)).toEqual(fieldsOf(inThread));
    }
    const unique = (await errorOf(
      worker.query('INSERT INTO u VALUES (3, $1)', ['a@example.test']),
    )) as Error & Record<string, unknown>;
    expect(unique).toBeInstanceOf(Error);
    expect(unique).toMatchObject({
      code: '23505',
      constraint: 'u_email_key',
      detail: 'Key (email)=(a@example.test) already exists.',
      message: 'duplicate key value violates unique constraint "u_email_key"',
    });
    expect(await errorOf(worker.query("SELECT '9007199254740993'::bigint"))).toBeInstanceOf(RangeError);
    // Both name the statement and its parameters, whether it failed at its preparation or its execution.
    for (const sql of ['SELEC $1', 'INSERT INTO u VALUES (3, $1)']) {
      const [inWorker, inThread] = await Promise.all(
        [worker, main].map((db) => errorOf(db.query(sql, ['a@example.test']))),
      );
      expect(inWorker).toMatchObject({ query: sql, params: ['a@example.test'] });
      expect(inThread).toMatchObject({ query: sql, params: ['a@example.test'] });
    }
  });

  it('prepares each SQL text once and returns what PGlite in the thread returns, whatever the parameters', async () => {
    const { worker, main } = await openBoth();
    const setup =
      'CREATE TABLE p (id bigserial PRIMARY KEY, n int, big bigint, f float8, ok boolean, t text, at timestamptz, ' +
      'day date, doc jsonb, tags text[], ids bigint[], raw bytea)';
    for (const db of [worker, main]) await db.exec(setup);
    const insert =
      'INSERT INTO p (n, big, f, ok, t, at, day, doc, tags, ids, raw) ' +
      'VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id, n, big, f, ok, t, at, day, doc, tags, ids, raw';
    const rowsOf = [
      [
        1,
        9007199254740991,
        1.5,
        true,
        'a "quoted", {braced} text',
        new Date('2026-03-29T01:30:00Z'),
        '2024-02-29',
        JSON.stringify({ a: [1, { b: null }] }),
        ['x', 'y z', 'with "quote"'],
        [1, 2],
        new Uint8Array([0, 1, 255]),
      ],
      [null, null, null, false, null, null, null, null, null, null, null],
      [
        -7,
        -1,
        -0.25,
        true,
        '',
        '2026-10-25T00:59:59.999Z',
        '1999-12-31',
        '"text"',
        [],
        [3],
        new Uint8Array([]),
      ],
    ];
    // Three rounds: the first prepares, the others run the prepared statements.
    for (let round = 0; round < 3; round++) {
      for (const params of rowsOf) {
        const [inWorker, inThread] = await Promise.all([
          worker.query(insert, params),
          main.query(insert, params),
        ]);
        expect(inWorker).toEqual(inThread);
      }
      const select = 'SELECT * FROM p WHERE id > $1 AND (t IS NULL OR t <> $2) ORDER BY id';
      const [a, b] = await Promise.all([worker.query(select, [0, 'nope']), main.query(select, [0, 'nope'])]);
      expect(a).toEqual(b);
      expect(a.rows).toHaveLength(3 * (round + 1));
      // In a transaction too, and an UPDATE's row count.
      const update = 'UPDATE p SET n = coalesce(n, 0) + $1 WHERE ok = $2';
      const counts = await Promise.all(
        [worker, main].map((db) =>
          db.transaction(async (tx) => (await tx.query(update, [1, true])).rowCount),
        ),
      );
      expect(counts[0]).toBe(counts[1]);
    }
    const named = await worker.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'iot\\_%'",
    );
    // One statement per SQL text (setup aside), not one per execution.
    expect(named.rows[0]?.n).toBeGreaterThanOrEqual(3);
    expect(named.rows[0]?.n).toBeLessThan(8);
  });

  it('prepares a statement anew after DDL changed what it returns, through exec or query', async () => {
    const db = await openPglite();
    open.push(db);
    await db.exec('CREATE TABLE d (a int); INSERT INTO d VALUES (1)');
    expect((await db.query('SELECT * FROM d')).rows).toEqual([{ a: 1 }]);
    await db.exec('ALTER TABLE d ADD COLUMN b int DEFAULT 2');
    expect((await db.query('SELECT * FROM d')).rows).toEqual([{ a: 1, b: 2 }]);
    await db.query('ALTER TABLE d ADD COLUMN c text DEFAULT $$x$$');
    expect((await db.query('SELECT * FROM d')).rows).toEqual([{ a: 1, b: 2, c: 'x' }]);
    await db.transaction(async (tx) => {
      await tx.query('ALTER TABLE d DROP COLUMN b');
      expect((await tx.query('SELECT * FROM d')).rows).toEqual([{ a: 1, c: 'x' }]);
    });
  });

  it('keeps at most a bounded number of prepared statements, closing the least recently used', async () => {
    const db = await openPglite();
    open.push(db);
    // More distinct texts than the worker keeps (1000): each still answers right.
    for (let i = 0; i < 1100; i++)
      expect((await db.query(`SELECT $1::int + ${i} AS n`, [1])).rows).toEqual([{ n: i + 1 }]);
    const { rows } = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'iot\\_%'",
    );
    expect(rows[0]?.n).toBeLessThanOrEqual(1001);
    expect(rows[0]?.n).toBeGreaterThan(900);
  });

  it('rolls back when the callback throws, holding the transaction open in the worker until then', async () => {
    const db = await openPglite();
    open.push(db);
    await db.exec('CREATE TABLE t (v int)');
    const failure = new Error('boom');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES (1)');
        // The transaction's own statements see its row while it is open.
        expect((await tx.query('SELECT v FROM t')).rows).toEqual([{ v: 1 }]);
        await sleep(10);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await db.query('SELECT v FROM t')).rows).toEqual([]);
    // A handle kept past its transaction's end is refused, as PGlite refuses it in the thread.
    let kept: Parameters<Parameters<Db['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      kept = tx;
    });
    await expect(kept?.query('SELECT 1')).rejects.toThrow('Transaction is closed');
  });

  it('batch runs its statements in one transaction of their own: results in order, all or nothing', async () => {
    const db = await openPglite();
    open.push(db);
    await db.exec('CREATE TABLE t (v int)');
    const results = await db.batch?.([
      { sql: 'INSERT INTO t VALUES ($1), ($2)', params: [1, 2] },
      { sql: "SELECT set_config('app.x', 'inside', true) AS x" },
      { sql: "SELECT sum(v)::int AS sum, current_setting('app.x') AS x FROM t" },
    ]);
    expect(results?.map((r) => r.rows)).toEqual([[], [{ x: 'inside' }], [{ sum: 3, x: 'inside' }]]);
    expect(results?.[0]?.rowCount).toBe(2);
    // The LOCAL setting ended with the batch's transaction.
    expect((await db.query("SELECT current_setting('app.x', true) AS x")).rows).toEqual([{ x: '' }]);
    const failed = await errorOf(
      db.batch?.([{ sql: 'INSERT INTO t VALUES (3)' }, { sql: 'SELECT 1/0' }]) ?? Promise.resolve(),
    );
    expect(failed.message).toBe('division by zero');
    expect((await db.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 2 }]);
    await expect(
      db.transaction(async () => {
        await db.batch?.([{ sql: 'SELECT 1' }]);
      }),
    ).rejects.toThrow('inside its own transaction');
  });

  it('serialises concurrent transactions and keeps plain queries out of them', async () => {
    const db = await openPglite();
    open.push(db);
    await db.exec('CREATE TABLE log (seq serial, n int, what text)');
    await Promise.all([
      ...Array.from({ length: 5 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO log (n, what) VALUES ($1, $2)', [i, 'a']);
          await sleep(5);
          await tx.query('INSERT INTO log (n, what) VALUES ($1, $2)', [i, 'b']);
        }),
      ),
      db.query("INSERT INTO log (n, what) VALUES (99, 'plain')"),
    ]);
    // In the order the rows were written, every transaction's two rows are neighbours: none ran inside
    // another, and the plain statement did not land inside one.
    const { rows } = await db.query<{ n: number; what: string }>('SELECT n, what FROM log ORDER BY seq');
    expect(rows).toHaveLength(11);
    const plain = rows.findIndex((r) => r.n === 99);
    const txRows = rows.filter((_, i) => i !== plain);
    for (let i = 0; i < txRows.length; i += 2) {
      expect([txRows[i]?.what, txRows[i + 1]?.what, txRows[i + 1]?.n]).toEqual(['a', 'b', txRows[i]?.n]);
    }
    expect(plain % 2).toBe(0);
  });

  it('starts a high-priority transaction before the transactions and plain statements already waiting, and the rest in their order', async () => {
    const db = await openPglite();
    open.push(db);
    await db.exec('CREATE TABLE log (seq serial, what text)');
    const held = deferred();
    const holds = deferred();
    const write = (what: string) => (tx: { query: Db['query'] }) =>
      tx.query('INSERT INTO log (what) VALUES ($1)', [what]).then(() => undefined);
    // The running transaction holds PGlite's connection while the others arrive.
    const running = db.transaction(async (tx) => {
      await write('running')(tx);
      holds.resolve();
      await held.promise;
    });
    await holds.promise;
    const waiting = [
      db.transaction(write('bulk 1')),
      db.query("INSERT INTO log (what) VALUES ('plain')"),
      db.transaction(write('bulk 2')),
      db.transaction(write('alarm 1'), { priority: 'high' }),
      db.transaction(write('bulk 3')),
      db.transaction(write('alarm 2'), { priority: 'high' }),
    ];
    await sleep(50);
    held.resolve();
    await Promise.all([running, ...waiting]);
    const { rows } = await db.query<{ what: string }>('SELECT what FROM log ORDER BY seq');
    expect(rows.map((r) => r.what)).toEqual([
      'running',
      'alarm 1',
      'alarm 2',
      'bulk 1',
      'plain',
      'bulk 2',
      'bulk 3',
    ]);
  });

  it('close ends the transactions still waiting for the connection: their callers see it closed', async () => {
    const db = await openPglite();
    await db.exec('CREATE TABLE t (v text)');
    const holds = deferred();
    const running = db.transaction(async (tx) => {
      await tx.query("INSERT INTO t VALUES ('running')");
      holds.resolve();
      await sleep(200);
      await tx.query('SELECT 1');
    });
    await holds.promise;
    const queued = db.transaction((tx) => tx.query("INSERT INTO t VALUES ('queued')"), { priority: 'high' });
    const outcomes = Promise.allSettled([running, queued]);
    await db.close();
    for (const outcome of await outcomes) {
      expect(outcome.status).toBe('rejected');
      expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/closed/);
    }
  });

  it('delivers the notifications of committed transactions to listen, and none after unlisten', async () => {
    const db = await openPglite();
    open.push(db);
    const seen: string[] = [];
    const also: string[] = [];
    const unlisten = await db.listen!('iot_test_channel', (payload) => seen.push(payload));
    const unlistenAlso = await db.listen!('iot_test_channel', (payload) => also.push(payload));
    await db.query("SELECT pg_notify('iot_test_channel', 'plain')");
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_notify('iot_test_channel', 'committed')");
    });
    await db
      .transaction(async (tx) => {
        await tx.query("SELECT pg_notify('iot_test_channel', 'rolled back')");
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await db.query("SELECT pg_notify('iot_other_channel', 'elsewhere')");
    await expect.poll(() => seen).toEqual(['plain', 'committed']);
    expect(also).toEqual(['plain', 'committed']);

    await unlistenAlso();
    await db.query("SELECT pg_notify('iot_test_channel', 'one left')");
    await expect.poll(() => seen).toEqual(['plain', 'committed', 'one left']);
    await unlisten();
    await db.query("SELECT pg_notify('iot_test_channel', 'nobody')");
    await db.query('SELECT 1');
    await sleep(50);
    expect(seen).toEqual(['plain', 'committed', 'one left']);
    expect(also).toEqual(['plain', 'committed']);
  });
});
