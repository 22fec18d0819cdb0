/**
 * `npm run db:migrate`: creates the database when missing and applies the migrations, then exits; what
 * the Kubernetes init container and the compose `migrate` service run once per deployment. The API does
 * the same at start (under the same advisory lock), so this is a no-op when it ran first.
 */
import { loadConfig } from '@iot/config';
import { DatabaseMissingError, ensureDatabase, migrate, openDb } from '@iot/db';

const config = loadConfig();
try {
  if (config.DATABASE_URL) await ensureDatabase(config.DATABASE_URL);
  const db = await openDb(config);
  const { applied } = await migrate(db);
  await db.close();
  console.log(applied.length > 0 ? `applied migrations ${applied.join(', ')}` : 'database up to date');
} catch (error) {
  console.error(error instanceof DatabaseMissingError ? error.message : error);
  process.exit(1);
}
