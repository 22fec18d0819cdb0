import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp } from './app';
import { type DbKind, openTestDb, type TestDb } from './databases';

/**
 * The API's in-memory caches under test (issue #29): apps with the caches on over one database of `kind`,
 * two on PostgreSQL (two API processes, whose announcements must reach each other), one on PGlite (one
 * process). Built before the block's tests, closed after; `db` and `apps` are set from then on.
 */
export function useCachingApps(kind: DbKind): { db: Db; apps: FastifyInstance[] } {
  let testDb: TestDb | undefined;
  const env = { db: undefined as unknown as Db, apps: [] as FastifyInstance[] };
  beforeAll(async () => {
    testDb = await openTestDb(kind);
    env.db = testDb.db;
    const count = kind === 'postgres' ? 2 : 1;
    env.apps = Array.from({ length: count }, () => buildTestApp(env.db, { session: { cacheSeconds: 30 } }));
    await Promise.all(env.apps.map((app) => app.ready()));
  });
  afterAll(async () => {
    await Promise.all(env.apps.map((app) => app.close()));
    await testDb?.drop();
  });
  return env;
}

/** Polls `probe` every 50 ms for up to 10 s: another process hears an announcement a moment later. */
export async function until(what: string, probe: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
