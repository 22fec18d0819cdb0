/**
 * Test databases of both kinds the platform runs on: PGlite in memory and a fresh database on the
 * machine's PostgreSQL (random name, dropped at the end). Both get every migration.
 */

import { randomBytes } from 'node:crypto';
import { type Db, migrate, openPglite, openPostgres } from '@iot/db';

export type DbKind = 'pglite' | 'postgres';
export const DB_KINDS: readonly DbKind[] = ['pglite', 'postgres'];

const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDb {
  db: Db;
  drop(): Promise<void>;
}

export async function openTestDb(kind: DbKind): Promise<TestDb> {
  if (kind === 'pglite') {
    const db = await openPglite();
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const name = `test_api_${randomBytes(6).toString('hex')}`;
  const admin = openPostgres({ url: ADMIN_URL, max: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  const db = openPostgres({ url: ADMIN_URL.replace(/\/postgres$/, `/${name}`), max: 5 });
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
    throw err;
  }
  return {
    db,
    async drop() {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
