import type { Db } from '@iot/db';
import { runMaintenancePass } from '@iot/db';

/**
 * The tables as a running platform has them a minute after a bench created its fleet by SQL: vacuumed and
 * analyzed by the embedded platform's maintenance pass on PGlite (which has no autovacuum; packages/db
 * README, "Maintenance"), analyzed by autovacuum on PostgreSQL. Without it a bench measures plans made
 * without statistics, which no installation keeps for more than a minute.
 */
export async function settleStatistics(db: Db): Promise<void> {
  if (db.kind === 'pglite') await runMaintenancePass(db);
  else await db.query('ANALYZE');
}
