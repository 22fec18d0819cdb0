import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from './db';
import { runMaintenancePass, startDbMaintenance } from './maintenance';
import { openPglite } from './pglite';

// PGlite only: PostgreSQL runs autovacuum itself, and the platform starts this on PGlite alone.
describe('database maintenance on PGlite (no autovacuum)', () => {
  let db: Db;
  beforeEach(async () => {
    db = await openPglite();
    await db.exec(`CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL, pad text NOT NULL);
      CREATE INDEX t_v_idx ON t (v);
      INSERT INTO t SELECT i, i, repeat('x', 100) FROM generate_series(1, 2000) i;`);
  });
  afterEach(async () => {
    await db.close();
  });

  const stats = async (table = 't') =>
    (
      await db.query<{ reltuples: number; relpages: number; pages: number; xid_age: number }>(
        `SELECT reltuples::float8 AS reltuples, relpages,
                (pg_relation_size(oid) / current_setting('block_size')::int)::int AS pages, age(relfrozenxid) AS xid_age
           FROM pg_class WHERE oid = $1::regclass`,
        [table],
      )
    ).rows[0];

  it('PGlite itself never analyzes: a table with rows has no statistics until a pass', async () => {
    // What the module exists for: with autovacuum, PostgreSQL would have analyzed t within a minute.
    expect((await stats())?.reltuples).toBe(-1);
    const done = await runMaintenancePass(db);
    expect(done).toContainEqual(expect.objectContaining({ table: 'public.t', reason: 'never analyzed' }));
    expect((await stats())?.reltuples).toBe(2000);
    // Nothing changed since: the next passes only vacuum it (no new sample), the statistics stay (a vacuum
    // that found nothing to scan must not write back a count from before the analyze), and the catalogs
    // are left alone.
    for (let pass = 0; pass < 3; pass += 1) {
      const next = await runMaintenancePass(db);
      expect(next).toContainEqual(expect.objectContaining({ table: 'public.t', reason: 'routine' }));
      expect(next.filter((d) => !d.table.startsWith('public.'))).toEqual([]);
      expect((await stats())?.reltuples).toBe(2000);
    }
  });

  it('vacuums every table so the space of updated rows is reused, and analyzes one that grew by a tenth', async () => {
    await runMaintenancePass(db);
    const initial = (await stats())?.pages ?? 0;
    expect(initial).toBeGreaterThan(20);
    // Every row updated six times, with an indexed column changing (no in-page HOT update). Without a
    // vacuum between the rounds the table holds seven versions of every row (measured: 35 -> 239 pages).
    for (let round = 1; round <= 6; round += 1) {
      await db.query('UPDATE t SET v = v + 1');
      const done = await runMaintenancePass(db);
      // The first round's new versions doubled the table: statistics are taken again; later rounds fit.
      const expected = round === 1 ? 'grew' : 'routine';
      expect(done).toContainEqual(expect.objectContaining({ table: 'public.t', reason: expected }));
    }
    const after = await stats();
    expect(after?.pages).toBeLessThanOrEqual(initial * 2.2);
    expect(after?.relpages).toBe(after?.pages);
    // A few new rows (less than a tenth): a vacuum, no new sample.
    await db.query(`INSERT INTO t SELECT i, i, 'y' FROM generate_series(3001, 3010) i`);
    expect(await runMaintenancePass(db)).toContainEqual(
      expect.objectContaining({ table: 'public.t', reason: 'routine' }),
    );
  });

  it('analyzes a table again once it grew by a tenth since its last analyze, however slowly', async () => {
    // A table growing by about 5 % a pass: every vacuum sets pg_class.relpages, so counting growth from
    // it, the table was never due again. The sizes at the last analyze are kept from pass to pass.
    const analyzed = new Map<string, number>();
    expect(await runMaintenancePass(db, analyzed)).toContainEqual(
      expect.objectContaining({ table: 'public.t', reason: 'never analyzed', pages: 35 }),
    );
    const reasons: string[] = [];
    for (let pass = 0; pass < 6; pass += 1) {
      const from = 10_000 + pass * 120;
      await db.query(
        `INSERT INTO t SELECT i, i, repeat('x', 100) FROM generate_series($1::int, $1::int + 119) i`,
        [from],
      );
      const done = await runMaintenancePass(db, analyzed);
      reasons.push(done.find((d) => d.table === 'public.t')?.reason ?? 'none');
    }
    // 35 pages plus a tenth and 4 is 42.5: the fourth pass (43 pages) analyzes, the ones after count from there.
    expect(reasons).toEqual(['routine', 'routine', 'routine', 'grew', 'routine', 'routine']);
  });

  it('freezes a table whose oldest transaction id is older than vacuum_freeze_table_age', async () => {
    await runMaintenancePass(db);
    // Transactions of their own, so the table's rows are some transactions old.
    for (let i = 0; i < 20; i += 1) await db.query('UPDATE t SET pad = pad WHERE id = $1', [i + 1]);
    const before = (await stats())?.xid_age ?? 0;
    expect(before).toBeGreaterThan(20);
    // The threshold is PostgreSQL's own setting (150 million by default), and a vacuum at that age freezes
    // what is older than vacuum_freeze_min_age (50 million): both lowered for this session.
    await db.query('SET vacuum_freeze_table_age = 10');
    await db.query('SET vacuum_freeze_min_age = 0');
    try {
      const done = await runMaintenancePass(db);
      expect(done).toContainEqual(
        expect.objectContaining({ table: 'public.t', reason: 'transaction id age' }),
      );
      expect(done).toContainEqual(
        expect.objectContaining({ table: 'pg_catalog.pg_class', reason: 'transaction id age' }),
      );
      expect((await stats())?.xid_age).toBeLessThan(before);
    } finally {
      await db.query('RESET vacuum_freeze_table_age');
      await db.query('RESET vacuum_freeze_min_age');
    }
  });

  it('runs on start and on its interval, logs what it did, and stops', async () => {
    const logged: { details: object; message: string }[] = [];
    const log = {
      info: (details: object, message: string) => logged.push({ details, message }),
      warn: (details: object, message: string) => logged.push({ details, message }),
    };
    const maintenance = startDbMaintenance({ db, log, intervalMs: 20, firstPassMs: 0 });
    try {
      await expect.poll(() => maintenance.passes(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      // Lines naming public.t with a reason: the passes run on their own timer, so which pass took a
      // change is not fixed, only that exactly one did and said so.
      const linesWith = (reason: string) =>
        logged.filter((l) => JSON.stringify(l.details).includes(`"table":"public.t","reason":"${reason}"`));
      expect(logged[0]?.message).toBe('database vacuumed and analyzed');
      expect(linesWith('never analyzed')).toHaveLength(1);
      // Later passes only vacuumed it, which is not worth a line (unless a pass took over a second).
      expect(logged.length).toBeLessThan(maintenance.passes());
      await db.query(`INSERT INTO t SELECT i, i, repeat('z', 100) FROM generate_series(5001, 7000) i`);
      // runNow waits for a timer pass under way and runs one of its own: by then one of them analyzed it.
      expect((await maintenance.runNow()).map((d) => d.table)).toContain('public.t');
      expect(linesWith('grew')).toHaveLength(1);
      expect(linesWith('never analyzed')).toHaveLength(1);
    } finally {
      await maintenance.stop();
    }
    const stoppedAt = maintenance.passes();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(maintenance.passes()).toBe(stoppedAt);
  });
});
