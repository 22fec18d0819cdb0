import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireModule, requireSession } from '../../../../../plugins/guards';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../../../../../test/databases';
import { createSuperAdmin, createTeam, createUser, PASSWORD } from '../../../../../test/fixtures';

describe.each(DB_KINDS)('super admin: clients, impersonation, module guard on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db);
    // A route behind the module guard, as module routes (parking, farming, ...) will use it.
    app.register(
      async (scope) => {
        scope.addHook('onRequest', requireSession);
        scope.get('/parking-probe', { preHandler: requireModule('parking') }, async (request) => ({
          payload: { company_id: request.auth?.companyId },
        }));
      },
      { prefix: '/api/v1/test' },
    );
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

  async function audit(companyId: number) {
    const { rows } = await db.query<{ action: string; user_id: number; details: Record<string, unknown> }>(
      'SELECT action, user_id::int AS user_id, details FROM audit_log WHERE company_id = $1 AND action LIKE $2 ORDER BY id',
      [companyId, 'impersonation.%'],
    );
    return rows;
  }

  it('lists clients with user counts', async () => {
    const team = await createTeam(db);
    const client = await signIn((await createSuperAdmin(db)).email);
    const res = await client.get('/api/v1/admin/clients');
    expect(res.status).toBe(200);
    const entry = res.body.payload.find((c: { id: number }) => c.id === team.company.id);
    expect(entry).toMatchObject({ name: team.company.name, user_count: 3, device_count: 0, blocked: false });
  });

  it('impersonates a client: every call acts for it, /core/user says so, start and end are audited', async () => {
    const team = await createTeam(db, { modules: ['farming'] });
    const superAdmin = await createSuperAdmin(db);
    const client = await signIn(superAdmin.email);
    const start = await client.get(`/api/v1/admin/clients/${team.company.id}/impersonate`);
    expect(start.status).toBe(200);
    expect(start.body.payload).toMatchObject({
      id: superAdmin.id,
      impersonated: true,
      company_id: team.company.id,
      real_company_id: 1,
    });

    const me = await client.get('/api/v1/core/user');
    expect(me.body.payload).toMatchObject({
      impersonated: true,
      company_id: team.company.id,
      company: { id: team.company.id },
    });
    const users = await client.get('/api/v1/core/users');
    expect(users.body.payload.map((u: { id: number }) => u.id).sort()).toEqual(
      [team.main.id, team.admin.id, team.plain.id].sort(),
    );
    const renamed = await client.put('/api/v1/core/company/', { name: 'Renamed by support' });
    expect(renamed.body.payload.id).toBe(team.company.id);
    expect((await audit(team.company.id)).map((a) => [a.action, a.user_id])).toEqual([
      ['impersonation.start', superAdmin.id],
    ]);

    const leave = await client.get('/api/v1/core/leave_impersonation');
    expect(leave.status).toBe(200);
    expect(leave.body.payload).toMatchObject({ impersonated: false, company_id: 1 });
    expect((await client.get('/api/v1/core/user')).body.payload.company_id).toBe(1);
    expect((await audit(team.company.id)).map((a) => a.action)).toEqual([
      'impersonation.start',
      'impersonation.end',
    ]);
  });

  it('needs the CSRF header for the state-changing GETs (77)', async () => {
    const team = await createTeam(db);
    const client = await signIn((await createSuperAdmin(db)).email);
    const res = await client.get(`/api/v1/admin/clients/${team.company.id}/impersonate`, { csrf: false });
    expect([res.status, res.body.code]).toEqual([419, 77]);
    expect((await client.get('/api/v1/core/user')).body.payload.impersonated).toBe(false);
  });

  it('refuses impersonation to everyone but a super admin with an admin or main role, and of company 1', async () => {
    const team = await createTeam(db);
    const other = await createTeam(db);
    const plainSuper = await createUser(db, 1, { roles: [] });
    for (const [email, code] of [
      [team.main.email, 72],
      [team.admin.email, 72],
      [plainSuper.email, 72],
    ] as const) {
      const client = await signIn(email);
      const res = await client.get(`/api/v1/admin/clients/${other.company.id}/impersonate`);
      expect([email, res.status, res.body.code]).toEqual([email, 403, code]);
    }
    const superAdmin = await signIn((await createSuperAdmin(db)).email);
    expect((await superAdmin.get('/api/v1/admin/clients/1/impersonate')).body.code).toBe(72);
    expect((await superAdmin.get('/api/v1/admin/clients/999999/impersonate')).body.code).toBe(4);
  });

  async function sessionsOf(companyId: number) {
    const { rows } = await db.query(
      'SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.company_id = $1',
      [companyId],
    );
    return rows.length;
  }

  it('blocks and unblocks a client: its sessions are deleted, sign-in answers 75; company 1 cannot be blocked', async () => {
    const team = await createTeam(db);
    const user = await signIn(team.plain.email);
    const admin = await signIn((await createSuperAdmin(db)).email);
    // A super admin acting as the client keeps acting (support for a blocked client).
    const support = await signIn((await createSuperAdmin(db)).email);
    await support.get(`/api/v1/admin/clients/${team.company.id}/impersonate`);
    expect(await sessionsOf(team.company.id)).toBe(1);
    const blocked = await admin.put(`/api/v1/admin/clients/${team.company.id}`, {
      blocked: true,
      modules: ['parking'],
    });
    expect(blocked.body.payload).toMatchObject({ blocked: true, modules: ['parking'] });
    expect(await sessionsOf(team.company.id)).toBe(0);
    expect((await user.get('/api/v1/core/user')).body.code).toBe(76);
    const signIn75 = new TestClient(app);
    await signIn75.csrf();
    expect(
      (await signIn75.post('/api/v1/auth/login', { email: team.plain.email, password: PASSWORD })).body.code,
    ).toBe(75);
    expect((await support.get('/api/v1/core/user')).body.payload.company_id).toBe(team.company.id);
    await admin.put(`/api/v1/admin/clients/${team.company.id}`, { blocked: false });
    expect((await (await signIn(team.plain.email)).get('/api/v1/core/user')).status).toBe(200);
    expect((await admin.put('/api/v1/admin/clients/1', { blocked: true })).status).toBe(400);
    expect(
      (await admin.put(`/api/v1/admin/clients/${team.company.id}`, { modules: ['teleport'] })).status,
    ).toBe(422);
  });

  it('soft-deletes a client: gone from the list, its sessions deleted, its users cannot log in (75)', async () => {
    const team = await createTeam(db);
    const user = await signIn(team.plain.email);
    const admin = await signIn((await createSuperAdmin(db)).email);
    expect((await admin.delete(`/api/v1/admin/clients/${team.company.id}`)).status).toBe(200);
    const list = await admin.get('/api/v1/admin/clients');
    expect(list.body.payload.map((c: { id: number }) => c.id)).not.toContain(team.company.id);
    expect(await sessionsOf(team.company.id)).toBe(0);
    expect((await user.get('/api/v1/core/user')).body.code).toBe(76);
    const again = new TestClient(app);
    await again.csrf();
    expect(
      (await again.post('/api/v1/auth/login', { email: team.main.email, password: PASSWORD })).body.code,
    ).toBe(75);
    const { rows } = await db.query('SELECT 1 FROM companies WHERE id = $1', [team.company.id]);
    expect(rows).toHaveLength(1);
  });

  it('guards module routes: 403 code 27 without the licence, open with it and for the super admin', async () => {
    const without = await createTeam(db);
    const withParking = await createTeam(db, { modules: ['parking'] });
    const refused = await (await signIn(without.plain.email)).get('/api/v1/test/parking-probe');
    expect([refused.status, refused.body.code]).toEqual([403, 27]);
    const allowed = await (await signIn(withParking.plain.email)).get('/api/v1/test/parking-probe');
    expect(allowed.body.payload.company_id).toBe(withParking.company.id);
    const superAdmin = await signIn((await createSuperAdmin(db)).email);
    expect((await superAdmin.get('/api/v1/test/parking-probe')).status).toBe(200);
    // Acting for a client without the module, the super admin still has every module (spec section 6).
    await superAdmin.get(`/api/v1/admin/clients/${without.company.id}/impersonate`);
    expect((await superAdmin.get('/api/v1/test/parking-probe')).body.payload.company_id).toBe(
      without.company.id,
    );
    const anonymous = await new TestClient(app).get('/api/v1/test/parking-probe');
    expect(anonymous.body.code).toBe(76);
  });
});
