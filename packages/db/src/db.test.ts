import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from './open';
import { DEFAULT_TEST_POSTGRES_URL, forEachDb } from './testing';

// Both implementations must return the same JavaScript values for the same SQL (see types.ts).
forEachDb(
  (suite) => {
    it('runs a parameterised query and returns ids as numbers, timestamps as Date, dates as text', async () => {
      const { rows } = await suite.db.query<{
        id: number;
        ids: number[];
        at: Date;
        day: string;
        days: string[];
        n: string;
      }>(
        `SELECT $1::bigint AS id, ARRAY[1, 2]::bigint[] AS ids, now() AS at, '2024-02-29'::date AS day,
                ARRAY['2024-01-01'::date] AS days, 1.5::numeric AS n`,
        [42],
      );
      expect(rows).toEqual([
        { id: 42, ids: [1, 2], at: expect.any(Date), day: '2024-02-29', days: ['2024-01-01'], n: '1.5' },
      ]);
    });

    it('returns bigserial ids as numbers and counts affected rows', async () => {
      await suite.db.exec('CREATE TABLE t_ids (id bigserial PRIMARY KEY, v text)');
      const inserted = await suite.db.query<{ id: number }>(
        "INSERT INTO t_ids (v) VALUES ('a'), ('b'), ('c') RETURNING id",
      );
      expect(inserted.rows.map((r) => typeof r.id)).toEqual(['number', 'number', 'number']);
      expect(inserted.rowCount).toBe(3);
      const updated = await suite.db.query("UPDATE t_ids SET v = 'x' WHERE v <> 'c'");
      expect(updated.rowCount).toBe(2);
      const count = await suite.db.query<{ count: number }>('SELECT count(*) FROM t_ids');
      expect(count.rows[0]?.count).toBe(3);
    });

    it('refuses an int8 beyond the safe integer range instead of rounding it', async () => {
      await expect(suite.db.query("SELECT '9007199254740993'::bigint AS big")).rejects.toThrow(RangeError);
      const { rows } = await suite.db.query<{ max: number }>("SELECT '9007199254740991'::bigint AS max");
      expect(rows[0]?.max).toBe(Number.MAX_SAFE_INTEGER);
    });

    it('runs a multi-statement script with exec', async () => {
      await suite.db.exec(
        'CREATE TABLE t_exec (v int); INSERT INTO t_exec VALUES (1); INSERT INTO t_exec VALUES (2);',
      );
      const { rows } = await suite.db.query<{ sum: number }>('SELECT sum(v)::int AS sum FROM t_exec');
      expect(rows[0]?.sum).toBe(3);
    });

    it('commits a transaction when the callback resolves', async () => {
      await suite.db.exec('CREATE TABLE t_commit (v int)');
      const result = await suite.db.transaction(async (tx) => {
        await tx.query('INSERT INTO t_commit VALUES ($1)', [1]);
        await tx.query('INSERT INTO t_commit VALUES ($1)', [2]);
        return 'done';
      });
      expect(result).toBe('done');
      const { rows } = await suite.db.query('SELECT v FROM t_commit ORDER BY v');
      expect(rows).toEqual([{ v: 1 }, { v: 2 }]);
    });

    it('rolls a transaction back and rethrows when the callback throws', async () => {
      await suite.db.exec('CREATE TABLE t_rollback (v int)');
      const failure = new Error('boom');
      await expect(
        suite.db.transaction(async (tx) => {
          await tx.query('INSERT INTO t_rollback VALUES (1)');
          throw failure;
        }),
      ).rejects.toBe(failure);
      const { rows } = await suite.db.query('SELECT v FROM t_rollback');
      expect(rows).toEqual([]);
      // The connection is usable afterwards (not left in an aborted transaction).
      await suite.db.query('INSERT INTO t_rollback VALUES (2)');
      expect((await suite.db.query('SELECT v FROM t_rollback')).rows).toEqual([{ v: 2 }]);
    });

    it('rolls back when a statement inside the transaction fails', async () => {
      await suite.db.exec('CREATE TABLE t_failed (v int PRIMARY KEY)');
      await expect(
        suite.db.transaction(async (tx) => {
          await tx.query('INSERT INTO t_failed VALUES (1)');
          await tx.query('INSERT INTO t_failed VALUES (1)');
        }),
      ).rejects.toThrow(/duplicate key/);
      expect((await suite.db.query('SELECT v FROM t_failed')).rows).toEqual([]);
    });

    it('refuses to use the Db itself from inside its own transaction', async () => {
      await expect(suite.db.transaction(() => suite.db.query('SELECT 1'))).rejects.toThrow(
        /inside its own transaction/,
      );
      await expect(suite.db.transaction(() => suite.db.transaction(async () => 1))).rejects.toThrow(
        /inside its own transaction/,
      );
    });
  },
  { migrate: false },
);

describe('postgres transaction', () => {
  forEachDb(
    (suite) => {
      it('keeps one connection from BEGIN to COMMIT', async () => {
        const pids = await suite.db.transaction(async (tx) => {
          const pids: number[] = [];
          for (let i = 0; i < 5; i++) {
            const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
            pids.push(rows[0]?.pid ?? -1);
          }
          return pids;
        });
        expect(new Set(pids).size).toBe(1);
      });

      it('runs transactions side by side on separate connections', async () => {
        await suite.db.exec('CREATE TABLE t_parallel (v int)');
        let release = () => {};
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        const first = suite.db.transaction(async (tx) => {
          await tx.query('INSERT INTO t_parallel VALUES (1)');
          await gate;
        });
        // The second transaction commits while the first is still open.
        await suite.db.transaction((tx) => tx.query('INSERT INTO t_parallel VALUES (2)'));
        expect((await suite.db.query('SELECT v FROM t_parallel')).rows).toEqual([{ v: 2 }]);
        release();
        await first;
        expect((await suite.db.query('SELECT v FROM t_parallel ORDER BY v')).rows).toEqual([
          { v: 1 },
          { v: 2 },
        ]);
      });
    },
    { kinds: ['postgres'], migrate: false },
  );
});

describe('openDb', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('opens PGlite under DATA_DIR/pglite without a DATABASE_URL, creating the directories', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iot-db-'));
    dirs.push(dir);
    // DATA_DIR need not exist yet on a first start.
    const dataDir = join(dir, 'not', 'yet', 'there');
    const db = await openDb({ DATA_DIR: dataDir });
    try {
      expect(db.kind).toBe('pglite');
      expect(readdirSync(join(dataDir, 'pglite'))).toContain('PG_VERSION');
    } finally {
      await db.close();
    }
  });

  it('opens PostgreSQL when DATABASE_URL is set', async () => {
    const db = await openDb({ DATABASE_URL: DEFAULT_TEST_POSTGRES_URL, DATA_DIR: '/nonexistent' });
    try {
      expect(db.kind).toBe('postgres');
      const { rows } = await db.query<{ one: number }>('SELECT 1 AS one');
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  });
});
