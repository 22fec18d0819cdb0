import { createHash } from 'node:crypto';
import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

forEachDb((suite) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  async function signIn(email: string) {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  }

  async function tokenRows(companyId: number) {
    const { rows } = await suite.db.query<{ id: number; token_hash: string; revoked: boolean }>(
      `SELECT id::int AS id, token_hash, revoked_at IS NOT NULL AS revoked FROM integration_tokens
        WHERE company_id = $1 ORDER BY id`,
      [companyId],
    );
    return rows;
  }

  describe('/core/integrations/tokens', () => {
    it('creates a token shown once, lists it without the token, and revokes it', async () => {
      const team = await createTeam(suite.db);
      const client = await signIn(team.main.email);
      const created = await client.post('/api/v1/core/integrations/tokens', {
        kind: 'chirpstack',
        name: ' LNS ',
      });
      expect(created.status).toBe(200);
      const { token, id } = created.body.payload;
      expect(created.body.payload).toMatchObject({
        kind: 'chirpstack',
        name: 'LNS',
        created_by: team.main.id,
      });
      expect((await tokenRows(team.company.id))[0]).toEqual({
        id,
        token_hash: createHash('sha256').update(token).digest('hex'),
        revoked: false,
      });
      await client.post('/api/v1/core/integrations/tokens', { kind: 'tts', name: 'TTS' });
      const list = await client.get('/api/v1/core/integrations/tokens');
      expect(list.body.payload.map((t: { kind: string }) => t.kind)).toEqual(['tts', 'chirpstack']);
      expect(JSON.stringify(list.body)).not.toContain(token);
      expect(list.body.payload[0]).not.toHaveProperty('token');

      const revoked = await client.delete(`/api/v1/core/integrations/tokens/${id}`);
      expect(revoked.status).toBe(200);
      expect((await tokenRows(team.company.id)).map((t) => t.revoked)).toEqual([true, false]);
      const after = await client.get('/api/v1/core/integrations/tokens');
      expect(after.body.payload[1].revoked_at).not.toBeNull();
    });

    it('validates the kind and the name (422)', async () => {
      const team = await createTeam(suite.db);
      const client = await signIn(team.admin.email);
      for (const body of [{ kind: 'mqtt', name: 'x' }, { kind: 'http', name: '   ' }, { kind: 'http' }]) {
        const res = await client.post('/api/v1/core/integrations/tokens', body);
        expect([res.status, res.body.code], JSON.stringify(body)).toEqual([422, 422]);
      }
      expect(await tokenRows(team.company.id)).toEqual([]);
    });

    it("is for admins and main users only (90007), and another company's token is not found", async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const otherClient = await signIn(other.main.email);
      const foreign = await otherClient.post('/api/v1/core/integrations/tokens', {
        kind: 'http',
        name: 'Theirs',
      });
      const plain = await signIn(team.plain.email);
      for (const res of [
        await plain.get('/api/v1/core/integrations/tokens'),
        await plain.post('/api/v1/core/integrations/tokens', { kind: 'http', name: 'Mine' }),
        await plain.delete(`/api/v1/core/integrations/tokens/${foreign.body.payload.id}`),
      ]) {
        expect([res.status, res.body.code]).toEqual([403, 90007]);
      }
      const main = await signIn(team.main.email);
      const list = await main.get('/api/v1/core/integrations/tokens');
      expect(list.body.payload).toEqual([]);
      const del = await main.delete(`/api/v1/core/integrations/tokens/${foreign.body.payload.id}`);
      expect([del.status, del.body.code]).toEqual([404, 404]);
      expect((await tokenRows(other.company.id)).map((t) => t.revoked)).toEqual([false]);
      expect(await tokenRows(team.company.id)).toEqual([]);
    });
  });

  describe('/core/integrations/network-server', () => {
    const URL_PATH = '/api/v1/core/integrations/network-server';

    async function storedServer(companyId: number) {
      const { rows } = await suite.db.query<{ kind: string; api_url: string; api_token: string }>(
        'SELECT kind, api_url, api_token FROM network_servers WHERE company_id = $1',
        [companyId],
      );
      return rows[0];
    }

    it('sets, shows without the token, keeps the token when left out, and removes the network server', async () => {
      const team = await createTeam(suite.db);
      const client = await signIn(team.admin.email);
      expect((await client.get(URL_PATH)).body.payload).toBeNull();

      const set = await client.put(URL_PATH, {
        kind: 'chirpstack',
        api_url: ' https://chirpstack.example.test:8080/ ',
        api_token: 'secret-api-token',
      });
      expect(set.status).toBe(200);
      expect(set.body.payload).toEqual({
        kind: 'chirpstack',
        api_url: 'https://chirpstack.example.test:8080',
        api_token_set: true,
        updated_by: team.admin.id,
        updated_at: expect.any(String),
      });
      expect(JSON.stringify(set.body)).not.toContain('secret-api-token');
      const shown = await client.get(URL_PATH);
      expect(shown.body.payload).toEqual(set.body.payload);
      expect(JSON.stringify(shown.body)).not.toContain('secret-api-token');

      // A new address without a token (or an empty one) keeps the stored token.
      await client.put(URL_PATH, { kind: 'chirpstack', api_url: 'https://lns.example.test:8443' });
      await client.put(URL_PATH, {
        kind: 'chirpstack',
        api_url: 'https://lns.example.test:8443',
        api_token: '  ',
      });
      expect(await storedServer(team.company.id)).toEqual({
        kind: 'chirpstack',
        api_url: 'https://lns.example.test:8443',
        api_token: 'secret-api-token',
      });
      await client.put(URL_PATH, {
        kind: 'chirpstack',
        api_url: 'https://lns.example.test:8443',
        api_token: 'rotated',
      });
      expect((await storedServer(team.company.id))?.api_token).toBe('rotated');

      const { rows: audit } = await suite.db.query<{ action: string; details: Record<string, unknown> }>(
        `SELECT action, details FROM audit_log WHERE company_id = $1 AND action LIKE 'network_server.%' ORDER BY id`,
        [team.company.id],
      );
      expect(audit.map((a) => [a.action, a.details.token_changed])).toEqual([
        ['network_server.update', true],
        ['network_server.update', false],
        ['network_server.update', false],
        ['network_server.update', true],
      ]);
      expect(JSON.stringify(audit)).not.toContain('secret-api-token');

      const removed = await client.delete(URL_PATH);
      expect(removed.status).toBe(200);
      expect(await storedServer(team.company.id)).toBeUndefined();
      expect((await client.get(URL_PATH)).body.payload).toBeNull();
      const again = await client.delete(URL_PATH);
      expect([again.status, again.body.code]).toEqual([404, 404]);
    });

    it.each([
      ['no token on the first setting', { api_url: 'http://chirpstack:8080' }, 'api_token'],
      ['an address that is no URL', { api_url: 'chirpstack:8080', api_token: 't' }, 'api_url'],
      ['another scheme', { api_url: 'grpc://chirpstack:8080', api_token: 't' }, 'api_url'],
      ['a path', { api_url: 'http://chirpstack:8080/api', api_token: 't' }, 'api_url'],
      [
        'credentials in the address',
        { api_url: 'http://user:pw@chirpstack:8080', api_token: 't' },
        'api_url',
      ],
      ['an empty address', { api_url: '', api_token: 't' }, 'api_url'],
    ])('refuses %s (422) and stores nothing', async (_case, body, field) => {
      const team = await createTeam(suite.db);
      const client = await signIn(team.main.email);
      const res = await client.put(URL_PATH, { kind: 'chirpstack', ...body });
      expect([res.status, res.body.code]).toEqual([422, 422]);
      expect(Object.keys(res.body.details.fields)).toEqual([field]);
      expect(await storedServer(team.company.id)).toBeUndefined();
    });

    it.each([
      ['loopback', 'http://127.0.0.1:8080'],
      ['a name resolving to loopback', 'http://localhost:8080'],
      ['a private address', 'http://10.0.0.5:8080'],
      ['an IPv4-mapped private address', 'http://[::ffff:192.168.1.20]:8080'],
    ])(
      'refuses %s at save, with the reason (422), unless private targets are allowed',
      async (_case, url) => {
        const team = await createTeam(suite.db);
        const client = await signIn(team.main.email);
        const res = await client.put(URL_PATH, { kind: 'chirpstack', api_url: url, api_token: 't' });
        expect([res.status, res.body.code]).toEqual([422, 422]);
        expect(res.body.details.fields.api_url).toMatchObject({ key: 'error.private-target' });
        expect(res.body.details.fields.api_url.params.reason).toMatch(/not a public address/);
        expect(await storedServer(team.company.id)).toBeUndefined();

        const onPremises = buildTestApp(suite.db, {
          config: { ...app.deps.config, HTTP_ACTIONS_ALLOW_PRIVATE: true },
        });
        try {
          const admin = new TestClient(onPremises);
          await admin.login(team.main.email, PASSWORD);
          const ok = await admin.put(URL_PATH, { kind: 'chirpstack', api_url: url, api_token: 't' });
          expect(ok.status).toBe(200);
        } finally {
          await onPremises.close();
        }
      },
    );

    it('refuses other kinds by schema (422)', async () => {
      const team = await createTeam(suite.db);
      const client = await signIn(team.main.email);
      const res = await client.put(URL_PATH, { kind: 'loriot', api_url: 'https://x.test', api_token: 't' });
      expect(res.status).toBe(422);
      expect(await storedServer(team.company.id)).toBeUndefined();
    });

    it('is for admins and main users only (90007), and each company sees and changes only its own', async () => {
      const team = await createTeam(suite.db);
      const other = await createTeam(suite.db);
      const theirs = await signIn(other.main.email);
      await theirs.put(URL_PATH, {
        kind: 'chirpstack',
        api_url: 'https://theirs.test',
        api_token: 'their-token',
      });
      const plain = await signIn(team.plain.email);
      for (const res of [
        await plain.get(URL_PATH),
        await plain.put(URL_PATH, { kind: 'chirpstack', api_url: 'https://mine.test', api_token: 'mine' }),
        await plain.delete(URL_PATH),
      ]) {
        expect([res.status, res.body.code]).toEqual([403, 90007]);
      }
      const main = await signIn(team.main.email);
      expect((await main.get(URL_PATH)).body.payload).toBeNull();
      expect((await main.delete(URL_PATH)).status).toBe(404);
      await main.put(URL_PATH, { kind: 'chirpstack', api_url: 'https://mine.test', api_token: 'mine' });
      expect(await storedServer(other.company.id)).toEqual({
        kind: 'chirpstack',
        api_url: 'https://theirs.test',
        api_token: 'their-token',
      });
      expect(await storedServer(team.company.id)).toMatchObject({ api_url: 'https://mine.test' });
    });
  });
});
