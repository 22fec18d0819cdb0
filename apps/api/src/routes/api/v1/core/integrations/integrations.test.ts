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

    it("is for admins and main users only (64), and another company's token is not found", async () => {
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
        expect([res.status, res.body.code]).toEqual([403, 64]);
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
});
