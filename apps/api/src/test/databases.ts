/**
 * Test databases of both kinds the platform runs on (PGlite in memory and a fresh database on the
 * machine's PostgreSQL), from @iot/db/testing; every API suite runs once per kind.
 */
import type { Db } from '@iot/db';
import { createTestDb, DB_KINDS, type DbKind } from '@iot/db/testing';

export { DB_KINDS, type DbKind };

export interface TestDb {
  db: Db;
  drop(): Promise<void>;
}

export async function openTestDb(kind: DbKind): Promise<TestDb> {
  const db = await createTestDb(kind);
  return { db, drop: () => db.drop() };
}
