import type { DbSuite } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp } from './app';
import { TestClient } from './client';
import { PASSWORD } from './fixtures';

/**
 * One API app on the suite's database for the tests of a `forEachDb` block, closed after them, and a
 * client signed in as a fixture user (every fixture user has PASSWORD).
 */
export function useRouteApp(suite: DbSuite) {
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });
  const current = (): FastifyInstance => {
    if (!app) throw new Error('the app is built in beforeAll; use it inside tests');
    return app;
  };
  return {
    async signIn(email: string): Promise<TestClient> {
      const client = new TestClient(current());
      await client.login(email, PASSWORD);
      return client;
    },
  };
}
