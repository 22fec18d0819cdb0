/**
 * The authorization matrix of the API-key principal (issue #27), over every route the app registers, so
 * a route added later is covered without a new row: a key holding every scope is refused (90030) on each
 * route outside API_KEY_ROUTES, and a key missing the route's scope is refused (90031) on each inside.
 * The refusals come before validation and lookups, so placeholder ids suffice.
 */
import type { Db } from '@iot/db';
import { API_KEY_SCOPES } from '@iot/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ROUTES } from '../plugins/api-keys';
import { buildTestApp } from '../test/app';
import { TestClient } from '../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../test/databases';
import { createTeam, PASSWORD } from '../test/fixtures';

interface RouteCase {
  method: string;
  url: string;
}

describe.each(DB_KINDS)('authorization matrix of API keys on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;
  const routes: RouteCase[] = [];
  let allScopes = '';
  const lacking = new Map<string, string>();

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db, { rateLimits: { apiKeyPerKey: { max: 100_000, windowMs: 60_000 } } } as never);
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        const api = route.url.startsWith('/api/v1/') && !route.url.startsWith('/api/v1/docs');
        if (method !== 'HEAD' && api) routes.push({ method, url: route.url });
      }
    });
    await app.ready();
    const team = await createTeam(db, { modules: ['external_api', 'map_view'] });
    const main = new TestClient(app);
    await main.login(team.main.email, PASSWORD);
    const create = async (scopes: readonly string[]) =>
      (await main.post('/api/v1/core/company/api-keys', { name: 'Matrix', scopes })).body.payload
        .key as string;
    allScopes = await create(API_KEY_SCOPES);
    for (const scope of API_KEY_SCOPES)
      lacking.set(scope, await create(API_KEY_SCOPES.filter((s) => s !== scope)));
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  const concrete = (url: string) => url.replace(/:\w+/g, '1');
  const keyOf = (method: string, url: string) =>
    API_KEY_ROUTES[`${method} ${url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url}`];

  it('finds the routes of the app, and every key route among them', () => {
    expect(routes.length).toBeGreaterThan(50);
    for (const route of Object.keys(API_KEY_ROUTES)) {
      expect(routes.some((r) => keyOf(r.method, r.url) && `${r.method} ${r.url}`.startsWith(route))).toBe(
        true,
      );
    }
  });

  it('refuses a key on every route that is not an API key route, and one lacking the scope on the others', async () => {
    const wrong: string[] = [];
    for (const { method, url } of routes) {
      const scope = keyOf(method, url);
      const key = scope ? lacking.get(scope)! : allScopes;
      const expected = scope ? 90031 : 90030;
      const res = await app.inject({
        method: method as 'GET',
        url: concrete(url),
        headers: { 'x-api-key': key },
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
      });
      const code = res.statusCode === 200 ? 200 : JSON.parse(res.body).code;
      if (code !== expected) wrong.push(`${method} ${url}: ${res.statusCode} ${code}, expected ${expected}`);
    }
    expect(wrong).toEqual([]);
  });
});
