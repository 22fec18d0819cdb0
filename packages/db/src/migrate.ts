import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db, Queryable } from './db';
import { embeddedMigrationFiles } from './migrations/embedded';

/**
 * Migration runner over numbered plain-SQL files `src/migrations/NNNN_name.sql`.
 *
 * Where the SQL comes from at run time: `src/migrations/embedded.ts` holds the text of every .sql file as a
 * plain TypeScript module (written by `npm run migrations:embed -w @iot/db`, checked against the .sql files
 * by migrate.test.ts). tsup bundles it like any other module, so an app bundled into `apps/x/dist` carries
 * its migrations inside its own JavaScript: no directory to copy, no path relative to `import.meta.url`
 * that moves when the code is bundled. `loadMigrationsFromDir(dir)` reads .sql files from a directory for
 * callers that want to run another set.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** sha-256 of the SQL text with line endings normalised, recorded when the migration is applied. */
  checksum: string;
}

export interface MigrateOptions {
  /** The migrations to apply; the embedded ones of this package by default. */
  migrations?: readonly Migration[];
  /** Called after each migration is applied. */
  onApplied?: (migration: Migration) => void;
}

export interface MigrateResult {
  /** Versions applied by this call, in order; empty when the database was up to date. */
  applied: number[];
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

const FILE_NAME = /^(\d{4})_([a-z0-9_]+)\.sql$/;

// Any fixed 64-bit number; all runners on one database take the same transaction-scoped advisory lock, so
// two processes starting together apply migrations one after the other instead of both at once.
const LOCK_KEY = 4_711_000_001;

function checksumOf(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

/** Turns `{ file, sql }` pairs into migrations ordered by version; rejects bad names and duplicate versions. */
export function toMigrations(files: readonly { file: string; sql: string }[]): Migration[] {
  const migrations = files.map(({ file, sql }) => {
    const match = FILE_NAME.exec(file);
    if (!match) throw new MigrationError(`migration file name ${file} is not NNNN_lower_case_name.sql`);
    return { version: Number(match[1]), name: match[2] ?? '', sql, checksum: checksumOf(sql) };
  });
  migrations.sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    const previous = migrations[i - 1];
    if (previous && previous.version === m.version) {
      throw new MigrationError(`two migrations have version ${m.version}: ${previous.name} and ${m.name}`);
    }
  });
  return migrations;
}

/** Reads every NNNN_name.sql file of `dir`. */
export function loadMigrationsFromDir(dir: string): Migration[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.sql'));
  return toMigrations(files.map((file) => ({ file, sql: readFileSync(join(dir, file), 'utf8') })));
}

/** This package's migrations, embedded in its code. */
export const migrations: readonly Migration[] = toMigrations(embeddedMigrationFiles);

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

async function lockAndReadApplied(tx: Queryable): Promise<Map<number, AppliedRow>> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
  await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    checksum   text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const { rows } = await tx.query<AppliedRow>('SELECT version, name, checksum FROM schema_migrations');
  return new Map(rows.map((r) => [r.version, r]));
}

function verify(known: readonly Migration[], applied: Map<number, AppliedRow>): void {
  const byVersion = new Map(known.map((m) => [m.version, m]));
  for (const row of applied.values()) {
    const migration = byVersion.get(row.version);
    if (!migration) {
      throw new MigrationError(
        `the database has migration ${row.version} (${row.name}) that this build does not know; it was migrated by a newer version`,
      );
    }
    if (migration.checksum !== row.checksum) {
      throw new MigrationError(
        `migration ${row.version} (${row.name}) was changed after it was applied: checksum ${row.checksum} in the database, ${migration.checksum} in the code. Add a new migration instead of editing an applied one.`,
      );
    }
  }
}

/**
 * Brings the schema up to date. Each migration runs in its own transaction together with its
 * schema_migrations row, under an advisory lock, so a failure leaves the database at the last complete
 * migration and concurrent runners apply each migration exactly once. Running it again is a no-op.
 * A changed checksum of an applied migration, or an applied migration this build does not know, is an error.
 */
export async function migrate(db: Db, options: MigrateOptions = {}): Promise<MigrateResult> {
  const known = options.migrations ?? migrations;
  const applied: number[] = [];
  const done = await db.transaction(lockAndReadApplied);
  verify(known, done);
  for (const migration of known) {
    if (done.has(migration.version)) continue;
    const ran = await db.transaction(async (tx) => {
      // Another runner may have applied it between our check and this lock.
      const now = await lockAndReadApplied(tx);
      verify(known, now);
      if (now.has(migration.version)) return false;
      try {
        await tx.exec(migration.sql);
      } catch (error) {
        throw new MigrationError(
          `migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`,
          { cause: error },
        );
      }
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      return true;
    });
    if (ran) {
      applied.push(migration.version);
      options.onApplied?.(migration);
    }
  }
  return { applied };
}

/**
 * Readiness (issue #29): rejects unless every migration of this build is applied, so a replica of a new
 * version is not sent traffic before the migration job ran. Reads only; never migrates.
 */
export async function checkMigrationsCurrent(
  db: Queryable,
  known: readonly Migration[] = migrations,
): Promise<void> {
  const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  const applied = new Set(rows.map((r) => Number(r.version)));
  const missing = known.filter((m) => !applied.has(m.version)).map((m) => m.version);
  if (missing.length > 0) throw new Error(`migrations not applied yet: ${missing.join(', ')}`);
}
