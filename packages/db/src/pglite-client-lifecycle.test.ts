/** PGlite in its worker thread: a worker that dies or cannot start, bad parameters, close, bundling. */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { openPglite } from './pglite';
import { pgliteWorkerOf } from './pglite-client';

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

describe('PGlite in a worker thread', () => {
  const open: Db[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((db) => db.close()));
  });

  it('rejects pending and later calls with a clear error when the worker dies', async () => {
    const db = await openPglite();
    open.push(db);
    await db.exec('CREATE TABLE t (v int)');
    const worker = pgliteWorkerOf(db)!;
    const slow = db.query(SLOW_SQL);
    const queued = db.query('SELECT 1');
    const transaction = db.transaction(async (tx) => {
      await tx.query('INSERT INTO t VALUES (1)');
      await sleep(50);
      await tx.query('INSERT INTO t VALUES (2)');
    });
    // The transaction waits for the slow statement; kill the worker while all three are pending.
    await sleep(20);
    await worker.terminate();
    await expect(slow).rejects.toThrow(/PGlite worker exited unexpectedly/);
    await expect(queued).rejects.toThrow(/PGlite worker exited unexpectedly/);
    await expect(transaction).rejects.toThrow(/PGlite worker exited unexpectedly/);
    await expect(db.query('SELECT 1')).rejects.toThrow(/PGlite worker exited unexpectedly/);
    await expect(db.transaction(async () => 1)).rejects.toThrow(/PGlite worker exited unexpectedly/);
    // Closing a Db whose worker died resolves (nothing left to close).
    await db.close();
  });

  it('tells its owner once when the worker dies after opening, and not when it is closed', async () => {
    const lost: Error[] = [];
    const db = await openPglite({ onLost: (error) => lost.push(error) });
    open.push(db);
    await pgliteWorkerOf(db)!.terminate();
    await sleep(20);
    expect(lost.map((e) => e.message)).toEqual([expect.stringMatching(/PGlite worker exited unexpectedly/)]);

    const closed: Error[] = [];
    const other = await openPglite({ onLost: (error) => closed.push(error) });
    await other.close();
    await sleep(20);
    expect(closed).toEqual([]);
  });

  it('rejects a call whose parameters cannot be sent to the worker, and stays usable', async () => {
    const db = await openPglite();
    open.push(db);
    await expect(db.query('SELECT $1::text AS v', [() => 1])).rejects.toThrow(/could not be cloned/);
    expect((await db.query('SELECT $1::text AS v', ['ok'])).rows).toEqual([{ v: 'ok' }]);
  });

  it('rejects the open when PGlite cannot start in the worker, as in the thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iot-pglite-bad-'));
    try {
      // A data directory of another PostgreSQL version: PGlite aborts while starting.
      writeFileSync(join(dir, 'PG_VERSION'), '9\n');
      const [inWorker, inThread] = await Promise.all([
        errorOf(openPglite({ dataDir: dir })),
        errorOf(openPglite({ dataDir: dir, thread: 'main' })),
      ]);
      expect(inWorker.constructor.name).toBe('RuntimeError');
      expect(inWorker.constructor).toBe(inThread.constructor);
      expect(inWorker.message).toBe(inThread.message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('close finishes the statements already sent, ends the worker and refuses later calls', async () => {
    const db = await openPglite();
    const worker = pgliteWorkerOf(db)!;
    const exited = once(worker, 'exit');
    const sent = db.query<{ n: number }>('SELECT 41 + 1 AS n');
    await db.close();
    expect((await sent).rows).toEqual([{ n: 42 }]);
    expect(await exited).toEqual([0]);
    await expect(db.query('SELECT 1')).rejects.toThrow('PGlite is closed');
    await db.close();
  });

  it('close rolls back a transaction still open and leaves the data on disk consistent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iot-pglite-close-'));
    try {
      const db = await openPglite({ dataDir: dir });
      await db.exec("CREATE TABLE t (v text); INSERT INTO t VALUES ('committed')");
      let inside = () => {};
      const entered = new Promise<void>((resolve) => {
        inside = resolve;
      });
      const unfinished = db.transaction(async (tx) => {
        await tx.query("INSERT INTO t VALUES ('never committed')");
        inside();
        await sleep(200);
        await tx.query('SELECT 1');
      });
      await entered;
      await db.close();
      await expect(unfinished).rejects.toThrow(/closed/);
      const again = await openPglite({ dataDir: dir });
      try {
        expect((await again.query('SELECT v FROM t')).rows).toEqual([{ v: 'committed' }]);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds its worker script from a bundle, as the tsup-built apps run it', async () => {
    // Bundled like apps/*/dist/main.js (tsup.base.ts: @iot sources in, npm packages external) into a
    // directory where no pglite-worker.js lies beside the bundle; the script comes from @iot/db then.
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const dir = join(root, 'node_modules', '.cache', `iot-db-bundle-${process.pid}-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(
        join(dir, 'entry.ts'),
        `import { openPglite } from ${JSON.stringify(fileURLToPath(new URL('./pglite.ts', import.meta.url)))};
         const db = await openPglite();
         const { rows } = await db.query("SELECT 41::bigint + 1 AS n, '2024-02-29'::date AS day");
         await db.close();
         console.log(JSON.stringify(rows));`,
      );
      await build({
        entryPoints: [join(dir, 'entry.ts')],
        outfile: join(dir, 'main.mjs'),
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        packages: 'external',
        logLevel: 'silent',
      });
      const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'main.mjs')], { cwd: dir });
      expect(JSON.parse(stdout)).toEqual([{ n: 42, day: '2024-02-29' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
