import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, migrations } from './migrate';
import { openPglite as openPgliteIn, type PgliteOptions } from './pglite';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The same behaviour whether PGlite runs in its worker thread (the default) or in this thread.
describe.each(['worker', 'main'] as const)('PGlite Db in the %s thread', (thread) => {
  const openPglite = (options: PgliteOptions = {}) => openPgliteIn({ ...options, thread });
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('serialises concurrent transactions so read-modify-write loses no update', async () => {
    const db = await openPglite();
    try {
      await db.exec('CREATE TABLE counter (n int NOT NULL); INSERT INTO counter VALUES (0);');
      // Each transaction reads, yields to the event loop, then writes n + 1. Interleaved on the single
      // connection, they would all read the same n and the final count would be far below 20.
      await Promise.all(
        Array.from({ length: 20 }, () =>
          db.transaction(async (tx) => {
            const { rows } = await tx.query<{ n: number }>('SELECT n FROM counter');
            await sleep(1);
            await tx.query('UPDATE counter SET n = $1', [(rows[0]?.n ?? 0) + 1]);
          }),
        ),
      );
      expect((await db.query('SELECT n FROM counter')).rows).toEqual([{ n: 20 }]);
    } finally {
      await db.close();
    }
  });

  it('keeps a plain query issued during a transaction out of that transaction', async () => {
    const db = await openPglite();
    try {
      await db.exec('CREATE TABLE t (v text)');
      let inside = () => {};
      const started = new Promise<void>((resolve) => {
        inside = resolve;
      });
      const failing = db.transaction(async (tx) => {
        await tx.query("INSERT INTO t VALUES ('in transaction')");
        inside();
        await sleep(20);
        throw new Error('roll back');
      });
      await started;
      const outside = db.query("INSERT INTO t VALUES ('outside')");
      await expect(failing).rejects.toThrow('roll back');
      await outside;
      expect((await db.query('SELECT v FROM t')).rows).toEqual([{ v: 'outside' }]);
    } finally {
      await db.close();
    }
  });

  it('keeps its data in dataDir across close and reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iot-pglite-'));
    dirs.push(dir);
    const first = await openPglite({ dataDir: dir });
    expect((await migrate(first)).applied).toEqual(migrations.map((m) => m.version));
    await first.query("INSERT INTO companies (name) VALUES ('Persistent GmbH')");
    await first.close();

    const second = await openPglite({ dataDir: dir });
    try {
      expect((await migrate(second)).applied).toEqual([]);
      const { rows } = await second.query('SELECT name FROM companies');
      expect(rows).toEqual([{ name: 'Persistent GmbH' }]);
    } finally {
      await second.close();
    }
  });
});
