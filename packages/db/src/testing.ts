/**
 * Test helpers for every suite in the repository that needs a database (import from '@iot/db/testing').
 * Tests talk to real databases: an in-memory PGlite, or a fresh database on the PostgreSQL server the
 * machine runs. Never imported by application code.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Db } from './db';
import { migrate } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

export type DbKind = Db['kind'];

export const DB_KINDS: readonly DbKind[] = ['pglite', 'postgres'];

/** The maintenance database test databases are created from (trust auth, user postgres). */
export const DEFAULT_TEST_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDbOptions {
  /** PostgreSQL maintenance database URL to create the test database from; DEFAULT_TEST_POSTGRES_URL if unset. */
  adminUrl?: string;
  /** Apply the migrations (default true); false gives an empty database, for migration tests. */
  migrate?: boolean;
}

/** A `Db` on its own fresh database; `drop()` closes it and removes the database. */
export interface TestDb extends Db {
  /** Connection URL of the test database (postgres only), e.g. for an app started by the test. */
  readonly url: string | undefined;
  drop(): Promise<void>;
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
  } catch (error) {
    // Fail loudly: a suite that silently skips when the database is down proves nothing.
    throw new Error(
      `PostgreSQL at ${adminUrl} cannot be reached (${(error as Error).message}); the postgres test suites need it running`,
      { cause: error },
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function testDb(db: Db, url: string | undefined, drop: () => Promise<void>): TestDb {
  return {
    kind: db.kind,
    url,
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    transaction: (fn, options) => db.transaction(fn, options),
    ...(db.listen ? { listen: db.listen.bind(db) } : {}),
    close: () => db.close(),
    drop,
  };
}

/**
 * Opens a fresh, migrated database: PGlite in memory, or a new PostgreSQL database named test_<random>
 * created on `adminUrl` and dropped again by `drop()` (connections still open to it are terminated first).
 */
export async function createTestDb(kind: DbKind, options: TestDbOptions = {}): Promise<TestDb> {
  if (kind === 'pglite') {
    const db = await openPglite();
    if (options.migrate !== false) await migrate(db);
    return testDb(db, undefined, () => db.close());
  }
  const adminUrl = options.adminUrl ?? DEFAULT_TEST_POSTGRES_URL;
  const name = `test_${randomBytes(8).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = openPostgres({ url: url.toString(), max: 5 });
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await db.close();
    await withAdmin(adminUrl, async (admin) => {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  };
  if (options.migrate !== false) {
    try {
      await migrate(db);
    } catch (error) {
      await drop();
      throw error;
    }
  }
  return testDb(db, url.toString(), drop);
}

export interface DbSuite {
  readonly kind: DbKind;
  /** The suite's database, created in beforeAll; read it inside tests and hooks, not while defining them. */
  readonly db: TestDb;
}

/**
 * Defines the suite `define` once per database kind, each inside `describe(kind)` with its own migrated
 * database shared by the suite's tests (created before, dropped after). Tests keep apart by creating their
 * own companies.
 *
 *   forEachDb((suite) => {
 *     it('stores a device', async () => { await suite.db.query('...') });
 *   });
 */
export function forEachDb(
  define: (suite: DbSuite) => void,
  options: TestDbOptions & { kinds?: readonly DbKind[] } = {},
): void {
  for (const kind of options.kinds ?? DB_KINDS) {
    describe(kind, () => {
      let current: TestDb | undefined;
      beforeAll(async () => {
        current = await createTestDb(kind, options);
      });
      afterAll(async () => {
        await current?.drop();
      });
      define({
        kind,
        get db(): TestDb {
          if (!current)
            throw new Error('the test database is created in beforeAll; use suite.db inside tests');
          return current;
        },
      });
    });
  }
}
