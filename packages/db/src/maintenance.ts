/**
 * Vacuum and statistics for PGlite, which has no autovacuum.
 *
 * PGlite runs PostgreSQL in single-user mode: no autovacuum launcher and no cumulative statistics
 * (pg_stat_user_tables stays at zero), so on its own a table is never analyzed, never vacuumed and never
 * frozen. Three things follow, all measured or checked here (packages/db README, "Maintenance"):
 * - the planner has no statistics and guesses: the rules worker's read of a batch's actions looked each rule
 *   up through `rules_company_idx` (every rule of the company, per job) instead of its primary key, 80 ms
 *   for 150 jobs instead of 5 (tests/bench/README.md, "PGlite has no autovacuum");
 * - rows updated in place (device status, rule states, alarms, job keys) leave dead versions that nothing
 *   reclaims, so these tables and their indexes only grow;
 * - transaction ids are never frozen, and PostgreSQL stops accepting writes before they wrap around.
 *
 * A pass does what autovacuum would, decided from the catalog and the sizes it analyzed tables at (PGlite
 * keeps no counters of changed rows), one statement per table so the platform's other statements get
 * PGlite's one connection in between:
 * - every table of the application's schema that has pages is vacuumed, so the space of updated and
 *   deleted rows is reused. A vacuum skips the pages that have not changed since the last one (visibility
 *   map) and the index scans when there are next to no dead rows, so an unchanged table costs a
 *   millisecond or two; without it a table updated in place grows by a full copy every few rounds
 *   (maintenance.test.ts);
 * - a table that was never analyzed, or that grew by more than a tenth and a few pages since it was last
 *   analyzed, is analyzed first (ANALYZE reads a sample of up to 30,000 rows, the dear part of a pass on a
 *   big table). Its size then is remembered in memory: `pg_class.relpages` cannot tell, since every
 *   vacuum sets it, and a table growing by 5 % a minute would never have been analyzed again. A process
 *   starts from `relpages`, the size at the last vacuum before it;
 * - any table, the system catalogs included (the database's frozen horizon is the oldest of all its
 *   tables), whose oldest unfrozen transaction id is older than `vacuum_freeze_table_age` is vacuumed,
 *   which at that age is an aggressive vacuum that freezes.
 * PostgreSQL runs autovacuum itself: the platform starts this only on PGlite.
 */
import type { Db } from './db';

/**
 * Why a table was maintained: `routine` is a vacuum alone; `never analyzed` and `grew` analyze and
 * vacuum; `transaction id age` vacuums a table (a system catalog too) due for freezing.
 */
export type MaintenanceReason = 'routine' | 'never analyzed' | 'grew' | 'transaction id age';

export interface TableMaintained {
  table: string;
  reason: MaintenanceReason;
  /** Pages when the pass read the catalog. */
  pages: number;
  ms: number;
}

/** Growth since the last analyze that makes a table due for another: autovacuum's scale factor. */
export const GROWTH_FACTOR = 0.1;
/** ... and at least this many pages (8 kB each), so a handful of rows in a small table is not a new sample. */
export const GROWTH_MIN_PAGES = 4;
/** The application's tables (migrations create everything in `public`). */
const APP_SCHEMA = 'public';

/**
 * The tables a pass may maintain, smallest first: ordinary tables and materialized views, not temporary
 * ones; every one of the application's schema, and any other (the system catalogs) only when due for
 * freezing. `reasonFor` decides what each gets.
 */
const CANDIDATES = `
  SELECT format('%I.%I', n.nspname, c.relname) AS name, n.nspname = $1 AS app, c.relpages,
         c.reltuples < 0 AS never_analyzed,
         (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages,
         age(c.relfrozenxid) > current_setting('vacuum_freeze_table_age')::int AS freeze_due
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'm') AND c.relpersistence <> 't'
     AND (n.nspname = $1 OR age(c.relfrozenxid) > current_setting('vacuum_freeze_table_age')::int)
   ORDER BY pages, name`;

/** A row of CANDIDATES. */
interface CandidateRow {
  /** Schema-qualified and quoted, ready for a statement. */
  name: string;
  app: boolean;
  /** Pages at the last vacuum or analyze (pg_class). */
  relpages: number;
  never_analyzed: boolean;
  /** Pages now. */
  pages: number;
  freeze_due: boolean;
}

/**
 * Pages of each table when this process last analyzed it (or first saw it), so growth counts from the
 * last analyze across the vacuums in between. One per process: `startDbMaintenance` keeps one.
 */
export type AnalyzedSizes = Map<string, number>;

/** Why `row` is due this pass, or undefined: not at all. */
function reasonFor(row: CandidateRow, analyzed: AnalyzedSizes): MaintenanceReason | undefined {
  if (row.freeze_due) return 'transaction id age';
  if (!row.app || row.pages === 0) return undefined;
  if (row.never_analyzed) return 'never analyzed';
  const analyzedAt = analyzed.get(row.name) ?? row.relpages;
  if (row.pages > analyzedAt * (1 + GROWTH_FACTOR) + GROWTH_MIN_PAGES) return 'grew';
  return 'routine';
}

/**
 * One pass (see the top of this file). Returns what was done; a table dropped in between is skipped.
 * `analyzed` carries the sizes at the last analyze from one pass to the next (a fresh map: growth counts
 * from `relpages`).
 */
export async function runMaintenancePass(
  db: Db,
  analyzed: AnalyzedSizes = new Map(),
): Promise<TableMaintained[]> {
  const { rows } = await db.query<CandidateRow>(CANDIDATES, [APP_SCHEMA]);
  const done: TableMaintained[] = [];
  for (const row of rows) {
    const reason = reasonFor(row, analyzed);
    if (!reason) continue;
    const analyze = reason === 'never analyzed' || reason === 'grew';
    const started = performance.now();
    try {
      // The name comes from the catalog, quoted by format('%I.%I'); neither statement takes parameters.
      // ANALYZE first and on its own: a vacuum's count of rows is written to pg_class in place and this
      // backend's relation cache keeps the count from before, which the next vacuum that finds no page
      // to scan writes back. After a first VACUUM or a combined VACUUM (ANALYZE) that was -1 ("never
      // analyzed": no statistics, every other pass); after an ANALYZE it is the analyzed count (measured
      // on PGlite, maintenance.test.ts).
      if (analyze) await db.query(`ANALYZE (SKIP_LOCKED) ${row.name}`);
      await db.query(`VACUUM (SKIP_LOCKED) ${row.name}`);
    } catch (error) {
      // Dropped since the catalog was read (a test's schema, a migration): nothing to maintain.
      if ((error as { code?: string }).code === '42P01') {
        analyzed.delete(row.name);
        continue;
      }
      throw error;
    }
    // Growth counts from here on; a table first seen starts from its size at the last vacuum.
    if (analyze) analyzed.set(row.name, row.pages);
    else if (!analyzed.has(row.name)) analyzed.set(row.name, row.relpages);
    done.push({ table: row.name, reason, pages: row.pages, ms: performance.now() - started });
  }
  return done;
}

/** The part of a pino logger this needs. */
export interface MaintenanceLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface DbMaintenanceOptions {
  db: Db;
  log: MaintenanceLog;
  /** Between the end of one pass and the start of the next: autovacuum's naptime, one minute. */
  intervalMs?: number;
  /**
   * Before the first pass: 10 s by default, after start-up's own statements (migrations, demo data, the
   * services' first reads), which it would slow down (on a fresh data directory the first pass at once
   * took 1.2 s beside them, 0.6 s alone) and whose rows it would not yet see.
   */
  firstPassMs?: number;
}

export interface DbMaintenance {
  readonly name: 'db-maintenance';
  /** Runs a pass now (after the one under way, if any) and resolves with what it did. */
  runNow(): Promise<TableMaintained[]>;
  /** Passes completed since start. */
  passes(): number;
  /** Ends the timer; waits for a pass under way. */
  stop(): Promise<void>;
}

/** Vacuum and analyze on a timer, for PGlite (see the top of this file). */
export function startDbMaintenance(options: DbMaintenanceOptions): DbMaintenance {
  const { db, log } = options;
  const intervalMs = options.intervalMs ?? 60_000;
  let completed = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // Passes run one after another: runNow during a timer pass waits for it, then runs its own.
  let running: Promise<unknown> = Promise.resolve();
  const analyzed: AnalyzedSizes = new Map();

  const pass = (): Promise<TableMaintained[]> => {
    const next = running.then(async () => {
      const started = performance.now();
      const done = await runMaintenancePass(db, analyzed);
      completed += 1;
      // A routine pass (vacuums only) is not worth a line every minute; statistics taken, a freeze, or a
      // pass that held the database for a second are.
      const ms = performance.now() - started;
      if (ms > 1000 || done.some((t) => t.reason !== 'routine')) {
        log.info(
          {
            ms: Math.round(ms),
            tables: done
              .filter((t) => t.reason !== 'routine' || t.ms > 100)
              .map((t) => ({ table: t.table, reason: t.reason, pages: t.pages, ms: Math.round(t.ms) })),
          },
          'database vacuumed and analyzed',
        );
      }
      return done;
    });
    running = next.catch(() => undefined);
    return next;
  };
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      pass()
        .catch((error: unknown) => log.warn({ error: String(error) }, 'database maintenance failed'))
        .finally(() => schedule(intervalMs));
    }, delayMs);
    timer.unref();
  };
  schedule(options.firstPassMs ?? 10_000);

  return {
    name: 'db-maintenance',
    runNow: pass,
    passes: () => completed,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
