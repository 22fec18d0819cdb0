/**
 * Issue #28, finding 9: a session ends after an absolute lifetime however busy it is, and its id changes
 * whenever the session's privileges do (sign-in, impersonation start and end), so a planted or leaked id
 * of before does not carry over.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../../../lib/tokens';
import { buildTestApp } from '../../../../test/app';
import { TestClient } from '../../../../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../../../../test/databases';
import { createSuperAdmin, createTeam, PASSWORD } from '../../../../test/fixtures';

describe.each(DB_KINDS)('session lifetime and rotation on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db);
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  const signIn = async (email: string) => {
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    return client;
  };
  const signedInFor = (id: string, hours: number) =>
    db.query(
      `UPDATE sessions SET created_at = now() - $2::float8 * interval '1 hour', last_seen_at = now()
        WHERE id = $1`,
      [id, hours],
    );

  it('refuses a session past its absolute lifetime (12 h by default) with 76, however recently used', async () => {
    const { plain } = await createTeam(db);
    const client = await signIn(plain.email);
    const id = sha256(client.jar.get('iot_session')!);
    await signedInFor(id, 11);
    expect((await client.get('/api/v1/core/user')).status).toBe(200);
    await signedInFor(id, 12.1);
    const res = await client.get('/api/v1/core/user');
    expect([res.status, res.body.code]).toEqual([401, 76]);
    const { rows } = await db.query('SELECT 1 FROM sessions WHERE id = $1', [id]);
    expect(rows).toHaveLength(0);
  });

  it('gives the session a new id at impersonation start and end; the old ids stop working', async () => {
    const { company } = await createTeam(db);
    const superAdmin = await createSuperAdmin(db);
    const client = await signIn(superAdmin.email);
    const before = client.jar.get('iot_session')!;
    const csrfBefore = client.jar.get('XSRF-TOKEN');
    await signedInFor(sha256(before), 3);

    expect((await client.get(`/api/v1/admin/clients/${company.id}/impersonate`)).status).toBe(200);
    const during = client.jar.get('iot_session')!;
    expect(during).not.toBe(before);
    expect(client.jar.get('XSRF-TOKEN')).not.toBe(csrfBefore);
    expect((await client.get('/api/v1/core/user')).body.payload.company_id).toBe(company.id);

    expect((await client.get('/api/v1/core/leave_impersonation')).status).toBe(200);
    const after = client.jar.get('iot_session')!;
    expect(after).not.toBe(during);
    expect((await client.get('/api/v1/core/user')).body.payload.company_id).toBe(1);

    for (const old of [before, during]) {
      const replay = new TestClient(app);
      replay.jar.set('iot_session', old);
      expect((await replay.get('/api/v1/core/user')).body.code).toBe(76);
    }
    // The new id keeps the sign-in time: rotating does not extend the absolute lifetime.
    const { rows } = await db.query<{ hours: number }>(
      `SELECT round(extract(epoch FROM now() - created_at) / 3600)::int AS hours FROM sessions WHERE id = $1`,
      [sha256(after)],
    );
    expect(rows[0]?.hours).toBe(3);
  });
});
