import { reportDbConnections } from '@iot/runtime';
import type { Db, Queryable } from './db';
import { checkMigrationsCurrent } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

/** The parts of the platform's `Config` that choose and locate the database. */
export interface OpenDbOptions {
  /** When set, PostgreSQL at this URL; otherwise PGlite. */
  DATABASE_URL?: string | undefined;
  /** PGlite keeps its files in `<DATA_DIR>/pglite`; undefined keeps them in memory. */
  DATA_DIR?: string | undefined;
  /** PostgreSQL pool size. */
  DATABASE_POOL_MAX?: number | undefined;
}

/**
 * Picks the implementation from configuration: a DATABASE_URL means PostgreSQL (the distributed profile
 * requires one), otherwise PGlite under DATA_DIR (the embedded profile). Accepts a `Config` as is.
 */
export async function openDb(
  options: OpenDbOptions,
  events: {
    /**
     * PGlite only: its worker thread died, so every statement fails from now on (PostgreSQL's pool
     * reconnects by itself and never calls this).
     */
    onLost?: (error: Error) => void;
  } = {},
): Promise<Db> {
  const db = options.DATABASE_URL
    ? openPostgres({
        url: options.DATABASE_URL,
        ...(options.DATABASE_POOL_MAX === undefined ? {} : { max: options.DATABASE_POOL_MAX }),
      })
    : await openPglite({
        ...(options.DATA_DIR === undefined
          ? {}
          : { dataDir: `${options.DATA_DIR.replace(/\/+$/, '')}/pglite` }),
        ...(events.onLost ? { onLost: events.onLost } : {}),
      });
  return reportingConnections(db);
}

/** The process's database in /metrics (iot_db_connections) until it is closed. */
function reportingConnections(db: Db): Db {
  const { connections } = db;
  if (!connections) return db;
  const unreport = reportDbConnections(db.kind, () => connections());
  const close = db.close.bind(db);
  db.close = async () => {
    unreport();
    await close();
  };
  return db;
}

/** Resolves once the database answers a statement: a process fails fast at start when it is unreachable. */
export async function checkDbReachable(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}

/** Readiness checks of a process's database (issue #29): it answers, and this build's migrations are applied. */
export function databaseChecks(db: Queryable): { name: string; check: () => Promise<void> }[] {
  return [
    { name: 'database', check: () => checkDbReachable(db) },
    { name: 'migrations', check: () => checkMigrationsCurrent(db) },
  ];
}
