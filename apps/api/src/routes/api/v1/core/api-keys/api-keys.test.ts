/**
 * External API keys (issue #27): creation and listing, the key principal's scopes, the refusal on
 * management routes, company walls, expiry and revocation, CSRF only for cookies, per-key rate limits,
 * the module switch, and the OpenAPI declaration.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ROUTES } from '../../../../../plugins/api-keys';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../../../../../test/databases';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

const KEYS = '/api/v1/core/company/api-keys';
const RATE = 5;

describe.each(DB_KINDS)('external API keys on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db, { rateLimits: { apiKeyPerKey: { max: RATE, windowMs: 60_000 } } } as never);
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  async function signIn(email: string) {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  }

  /** A team with the module, a device, and a key of its main user with the given scopes. */
  async function keyed(scopes: string[] = ['devices:read']) {
    const team = await createTeam(db, { modules: ['external_api'] });
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO devices (company_id, name) VALUES ($1, 'Keyed device') RETURNING id::int AS id`,
      [team.company.id],
    );
    const main = await signIn(team.main.email);
    const res = await main.post(KEYS, { name: 'Integrator', scopes });
    expect(res.status).toBe(200);
    return {
      team,
      main,
      deviceId: rows[0]!.id,
      key: res.body.payload.key as string,
      id: res.body.payload.id,
    };
  }

  /** A request with nothing but the key: no cookie, no CSRF token. */
  function withKey(key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
    return app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  }
  const code = (res: { body: string }) => JSON.parse(res.body).code;

  it('refuses key management without the module (27) and to plain users (90035)', async () => {
    const bare = await createTeam(db);
    const main = await signIn(bare.main.email);
    const refused = await main.post(KEYS, { name: 'x', scopes: ['devices:read'] });
    expect([refused.status, refused.body.code]).toEqual([403, 27]);
    const licensed = await createTeam(db, { modules: ['external_api'] });
    const plain = await signIn(licensed.plain.email);
    const res = await plain.get(KEYS);
    expect([res.status, res.body.code]).toEqual([403, 90035]);
  });

  it('shows the key once, stores its hash only, and counts its uses', async () => {
    const { main, key, id, deviceId } = await keyed();
    expect(key).toMatch(/^iotk_/);
    const stored = await db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [id]);
    expect(stored.rows[0]!.key_hash).not.toContain(key);
    const ok = await withKey(key, 'GET', `/api/v1/core/data/${deviceId}`);
    expect(ok.statusCode).toBe(200);
    await withKey(key, 'GET', '/api/v1/core/devices');
    const list = await main.get(KEYS);
    const entry = list.body.payload.find((k: { id: number }) => k.id === id);
    expect(entry).toMatchObject({ name: 'Integrator', scopes: ['devices:read'], request_count: 2 });
    expect(entry.key).toBeUndefined();
    expect(entry.last_used_at).not.toBeNull();
    expect(key.startsWith(entry.prefix)).toBe(true);
  });

  it('refuses keys on user, company, key and impersonation routes (90030)', async () => {
    const { key } = await keyed(['devices:read', 'devices:write', 'commands:send', 'rules:manage']);
    const refused = [
      await withKey(key, 'GET', '/api/v1/core/users'),
      await withKey(key, 'POST', '/api/v1/core/users', { email: 'x@example.test', name: 'x' }),
      await withKey(key, 'PUT', '/api/v1/core/company', { name: 'Taken over' }),
      await withKey(key, 'GET', KEYS),
      await withKey(key, 'POST', KEYS, { name: 'Minted', scopes: ['devices:read'] }),
      await withKey(key, 'GET', '/api/v1/core/leave_impersonation'),
      await withKey(key, 'GET', '/api/v1/admin/clients'),
      await withKey(key, 'GET', '/api/v1/core/user'),
    ];
    for (const res of refused) expect([res.statusCode, code(res)]).toEqual([403, 90030]);
  });

  it('allows only the routes of its scopes (90031)', async () => {
    const { key, deviceId } = await keyed(['devices:read']);
    const write = await withKey(key, 'PUT', `/api/v1/core/devices/${deviceId}`, { name: 'Renamed' });
    expect([write.statusCode, code(write)]).toEqual([403, 90031]);
    const command = await withKey(key, 'POST', `/api/v1/core/devices/${deviceId}/downlink`, {});
    expect([command.statusCode, code(command)]).toEqual([403, 90031]);
    const writer = await keyed(['devices:write']);
    const renamed = await withKey(writer.key, 'PUT', `/api/v1/core/devices/${writer.deviceId}`, {
      name: 'Renamed by key',
    });
    expect(renamed.statusCode).toBe(200);
  });

  it("never reads another company's devices", async () => {
    const a = await keyed();
    const b = await keyed();
    const res = await withKey(a.key, 'GET', `/api/v1/core/devices/${b.deviceId}`);
    expect([res.statusCode, code(res)]).toEqual([404, 10]);
    const data = await withKey(a.key, 'GET', `/api/v1/core/data/${b.deviceId}`);
    expect(data.statusCode).toBe(404);
    const list = JSON.parse((await withKey(a.key, 'GET', '/api/v1/core/devices')).body).payload;
    const ids = (Array.isArray(list) ? list : (list.data ?? list.devices ?? [])).map(
      (d: { id: number }) => d.id,
    );
    expect(ids).not.toContain(b.deviceId);
  });

  it('stops an expired or revoked key (90032), also given as X-API-Key', async () => {
    const expiring = await keyed();
    await db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expiring.id,
    ]);
    const expired = await withKey(expiring.key, 'GET', '/api/v1/core/devices');
    expect([expired.statusCode, code(expired)]).toEqual([401, 90032]);

    const revoking = await keyed();
    const header = { 'x-api-key': revoking.key };
    expect((await app.inject({ url: '/api/v1/core/devices', headers: header })).statusCode).toBe(200);
    expect((await revoking.main.delete(`${KEYS}/${revoking.id}`)).status).toBe(200);
    const revoked = await app.inject({ url: '/api/v1/core/devices', headers: header });
    expect([revoked.statusCode, code(revoked)]).toEqual([401, 90032]);
    const unknown = await withKey('iotk_not-a-key', 'GET', '/api/v1/core/devices');
    expect([unknown.statusCode, code(unknown)]).toEqual([401, 90032]);
  });

  it('refuses an expiry in the past (90036) and a key of another company on revoke (90034)', async () => {
    const a = await keyed();
    const past = await a.main.post(KEYS, {
      name: 'Old',
      scopes: ['devices:read'],
      expires_at: '2000-01-01T00:00:00Z',
    });
    expect([past.status, past.body.code]).toEqual([422, 90036]);
    const b = await keyed();
    const res = await a.main.delete(`${KEYS}/${b.id}`);
    expect([res.status, res.body.code]).toEqual([404, 90034]);
    expect((await withKey(b.key, 'GET', '/api/v1/core/devices')).statusCode).toBe(200);
  });

  it('needs no CSRF token with a key, while a cookie session still does', async () => {
    const { main, key, deviceId } = await keyed(['devices:write']);
    const byKey = await withKey(key, 'PUT', `/api/v1/core/devices/${deviceId}`, { name: 'By key' });
    expect(byKey.statusCode).toBe(200);
    const byCookie = await main.put(
      `/api/v1/core/devices/${deviceId}`,
      { name: 'No token' },
      { csrf: false },
    );
    expect([byCookie.status, byCookie.body.code]).toEqual([419, 77]);
    // A cookie next to a key does not lend the key the session's rights.
    const mixed = await app.inject({
      method: 'GET',
      url: KEYS,
      headers: { authorization: `Bearer ${key}`, cookie: main.cookieHeader() },
    });
    expect([mixed.statusCode, code(mixed)]).toEqual([403, 90030]);
  });

  it('stops keys when the module is removed (27) or the company blocked (75)', async () => {
    const unlicensed = await keyed();
    await db.query(`UPDATE companies SET modules = '{}' WHERE id = $1`, [unlicensed.team.company.id]);
    const res = await withKey(unlicensed.key, 'GET', '/api/v1/core/devices');
    expect([res.statusCode, code(res)]).toEqual([403, 27]);
    const blocked = await keyed();
    await db.query('UPDATE companies SET blocked = true WHERE id = $1', [blocked.team.company.id]);
    const refused = await withKey(blocked.key, 'GET', '/api/v1/core/devices');
    expect([refused.statusCode, code(refused)]).toEqual([403, 75]);
  });

  it('limits each key on its own (429 with Retry-After), never the sessions', async () => {
    const { main, key } = await keyed();
    const other = await keyed();
    for (let i = 0; i < RATE; i++)
      expect((await withKey(key, 'GET', '/api/v1/core/devices')).statusCode).toBe(200);
    const limited = await withKey(key, 'GET', '/api/v1/core/devices');
    expect([limited.statusCode, code(limited)]).toEqual([429, 90033]);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await withKey(other.key, 'GET', '/api/v1/core/devices')).statusCode).toBe(200);
    for (let i = 0; i < RATE + 2; i++) expect((await main.get('/api/v1/core/devices')).status).toBe(200);
  });

  it('declares the key schemes and each key route with its scope in the OpenAPI document', async () => {
    const doc = JSON.parse((await app.inject({ url: '/api/v1/docs/json' })).body);
    expect(doc.components.securitySchemes.apiKeyBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({ in: 'header', name: 'X-API-Key' });
    for (const [route, scope] of Object.entries(API_KEY_ROUTES)) {
      const [method, path] = route.split(' ') as [string, string];
      const openApiPath = path.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[openApiPath]?.[method.toLowerCase()];
      expect(operation, route).toBeDefined();
      expect(operation['x-api-key-scopes']).toEqual([scope]);
      expect(operation.security).toContainEqual({ apiKeyBearer: [] });
    }
    expect(doc.paths['/api/v1/core/users'].get.security).toBeUndefined();
  });
});
