import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp } from './app';
import { TestClient } from './client';
import { type DbKind, openTestDb, type TestDb } from './databases';
import { PASSWORD } from './fixtures';

export interface CachingApps {
  db: Db;
  apps: FastifyInstance[];
  /** A signed-in client of `app` (default: the first). */
  signIn: (email: string, app?: FastifyInstance) => Promise<TestClient>;
}

/**
 * The API's in-memory caches under test (issue #29): apps with the caches on over one database of `kind`,
 * two on PostgreSQL (two API processes, whose announcements must reach each other), one on PGlite (one
 * process). Built before the block's tests, closed after; `db` and `apps` are set from then on.
 */
export function useCachingApps(kind: DbKind): CachingApps {
  let testDb: TestDb | undefined;
  const env: CachingApps = {
    db: undefined as unknown as Db,
    apps: [],
    // The first app unless another is named: the last one is "another API process" on PostgreSQL.
    signIn: async (email, app = env.apps[0] as FastifyInstance) => {
      const client = new TestClient(app);
      await client.login(email, PASSWORD);
      return client;
    },
  };
  beforeAll(async () => {
    testDb = await openTestDb(kind);
    env.db = testDb.db;
    const count = kind === 'postgres' ? 2 : 1;
    env.apps = Array.from({ length: count }, () =>
      buildTestApp(env.db, {
        // Announced changes at once: the tests write, then read, within a second (scope-throttle.test.ts
        // covers the window).
        session: { cacheSeconds: 30, listRefreshMs: 0 },
      }),
    );
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
