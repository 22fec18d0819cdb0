import pg from 'pg';

/** The database of DATABASE_URL is missing and this user may not create it: the one line to show. */
export class DatabaseMissingError extends Error {
  override name = 'DatabaseMissingError';
}

/** PostgreSQL error codes: 3D000 invalid_catalog_name, 42501 insufficient_privilege, 42P04 duplicate_database. */
const MISSING = '3D000';
const NOT_ALLOWED = '42501';
const EXISTS = '42P04';

/**
 * Makes sure the database of `url` exists: connects to it and, when PostgreSQL answers that it does not
 * exist, creates it from the server's `postgres` database (the same user). A user without CREATEDB gets a
 * DatabaseMissingError whose message is one line that says what to do. Resolves with whether it created
 * the database. Two processes starting together: the second finds it made (42P04) and goes on.
 */
export async function ensureDatabase(url: string): Promise<{ created: boolean }> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, '')) || target.username || 'postgres';
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return { created: false };
  } catch (error) {
    if ((error as { code?: string }).code !== MISSING) throw error;
  } finally {
    await probe.end().catch(() => {});
  }
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    return { created: true };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === EXISTS) return { created: false };
    const user = decodeURIComponent(target.username) || 'this user';
    const why = code === NOT_ALLOWED ? `${user} may not create it` : (error as Error).message;
    throw new DatabaseMissingError(
      `database "${name}" does not exist and could not be created (${why}): create it (createdb -O ${user} ${name}) or give ${user} CREATEDB, then start again`,
    );
  } finally {
    await admin.end().catch(() => {});
  }
}
