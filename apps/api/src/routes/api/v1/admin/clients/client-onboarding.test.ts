/**
 * Client administration of issue #27: creating a client with an invited main user, editing its base data
 * and logo, blocking and deleting (sessions end, sign-in refused with 75, unblocking restores), and the
 * record of impersonation seen by the super admin and by the client's main users.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../../../../../test/databases';
import { createSuperAdmin, createTeam, PASSWORD, uniqueEmail } from '../../../../../test/fixtures';

const NEW_PASSWORD = 'Invited-Main9!x';
const PNG_1PX =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe.each(DB_KINDS)('client administration on %s', (kind) => {
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

  async function signIn(email: string, password = PASSWORD) {
    const client = new TestClient(app);
    await client.login(email, password);
    return client;
  }
  const superAdmin = async () => signIn((await createSuperAdmin(db)).email);

  async function mailTo(email: string) {
    const { rows } = await db.query<{ subject: string; body: string }>(
      'SELECT subject, body FROM outbox_emails WHERE $1 = ANY(recipients) ORDER BY id',
      [email],
    );
    return rows;
  }

  it('creates a client whose main user is invited by mail and sets a password through the link', async () => {
    const admin = await superAdmin();
    const email = uniqueEmail('invited');
    const res = await admin.post('/api/v1/admin/clients', {
      name: 'Stadtwerke Test',
      city: 'Freiburg',
      customer_number: 'K-1',
      modules: ['parking', 'external_api'],
      main_user: { email, name: 'Erika Muster', locale: 'de' },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({
      name: 'Stadtwerke Test',
      city: 'Freiburg',
      modules: ['parking', 'external_api'],
    });
    const mails = await mailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Stadtwerke Test');
    const token = /\/login\/reset-password\/(\S+)/.exec(mails[0]!.body)?.[1];
    expect(token).toBeDefined();

    const anon = new TestClient(app);
    await anon.csrf();
    const reset = await anon.post('/api/v1/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reset.status).toBe(200);
    const main = await signIn(email, NEW_PASSWORD);
    const me = await main.get('/api/v1/core/user');
    expect(me.body.payload).toMatchObject({ email, company_id: res.body.payload.id });
    expect(me.body.payload.roles).toEqual(expect.arrayContaining(['ROLE_MAINUSER']));
  });

  it('refuses a taken email (73), bad input (422), and callers other than the super admin (72)', async () => {
    const admin = await superAdmin();
    const team = await createTeam(db);
    const taken = await admin.post('/api/v1/admin/clients', {
      name: 'Duplicate',
      main_user: { email: team.plain.email, name: 'Someone' },
    });
    expect([taken.status, taken.body.code]).toEqual([409, 73]);
    const bad = await admin.post('/api/v1/admin/clients', { name: 'No main user' });
    expect(bad.status).toBe(422);
    const main = await signIn(team.main.email);
    const refused = await main.post('/api/v1/admin/clients', {
      name: 'Sneaky',
      main_user: { email: uniqueEmail(), name: 'x' },
    });
    expect([refused.status, refused.body.code]).toEqual([403, 72]);
    const { rows } = await db.query("SELECT 1 FROM companies WHERE name IN ('Duplicate', 'Sneaky')");
    expect(rows).toHaveLength(0);
  });

  it('edits and reads base data and the logo, checking type (50109) and size (90037)', async () => {
    const admin = await superAdmin();
    const team = await createTeam(db);
    const url = `/api/v1/admin/clients/${team.company.id}`;
    const ok = await admin.put(url, { name: 'Renamed client', zip: '79098', logo: PNG_1PX });
    expect(ok.status).toBe(200);
    expect(ok.body.payload).toMatchObject({ name: 'Renamed client', zip: '79098', logo: PNG_1PX });
    // The super admin reads the whole base data back for the edit dialog; an unknown client is 4.
    const read = await admin.get(url);
    expect(read.body.payload).toMatchObject({ id: team.company.id, name: 'Renamed client', zip: '79098' });
    const unknown = await admin.get('/api/v1/admin/clients/999999');
    expect([unknown.status, unknown.body.code]).toEqual([404, 4]);
    const wrongType = await admin.put(url, { logo: 'data:text/html;base64,PGgxPg==' });
    expect([wrongType.status, wrongType.body.code]).toEqual([415, 50109]);
    const big = `data:image/png;base64,${Buffer.alloc(70 * 1024).toString('base64')}`;
    const tooLarge = await admin.put(url, { logo: big.slice(0, 99_000) });
    expect([tooLarge.status, tooLarge.body.code]).toEqual([422, 90037]);
    // The client's own company settings check the logo the same way.
    const main = await signIn(team.main.email);
    const own = await main.put('/api/v1/core/company', { logo: 'data:image/gif;base64,R0lGOD==' });
    expect([own.status, own.body.code]).toEqual([415, 50109]);
  });

  it("ends a blocked client's sessions, refuses sign-in with 75, and unblocking lets it sign in", async () => {
    const admin = await superAdmin();
    const team = await createTeam(db);
    const main = await signIn(team.main.email);
    expect((await admin.put(`/api/v1/admin/clients/${team.company.id}`, { blocked: true })).status).toBe(200);
    // Blocking deletes the client's sessions (issue #27): the next call is signed out.
    const during = await main.get('/api/v1/core/devices');
    expect([during.status, during.body.code]).toEqual([401, 76]);
    const again = new TestClient(app);
    await again.csrf();
    const login = await again.post('/api/v1/auth/login', { email: team.main.email, password: PASSWORD });
    expect([login.status, login.body.code]).toEqual([403, 75]);
    expect((await admin.put(`/api/v1/admin/clients/${team.company.id}`, { blocked: false })).status).toBe(
      200,
    );
    expect((await main.get('/api/v1/core/devices')).status).toBe(401);
    expect((await (await signIn(team.main.email)).get('/api/v1/core/devices')).status).toBe(200);
  });

  it("ends a deleted client's sessions and refuses its sign-in (75)", async () => {
    const admin = await superAdmin();
    const team = await createTeam(db);
    const plain = await signIn(team.plain.email);
    expect((await admin.delete(`/api/v1/admin/clients/${team.company.id}`)).status).toBe(200);
    const after = await plain.get('/api/v1/core/devices');
    expect([after.status, after.body.code]).toEqual([401, 76]);
    const again = new TestClient(app);
    await again.csrf();
    const login = await again.post('/api/v1/auth/login', { email: team.plain.email, password: PASSWORD });
    expect([login.status, login.body.code]).toEqual([403, 75]);
  });

  it('records who acted as the client, when and from where, for the super admin and the main users', async () => {
    const admin = await superAdmin();
    const team = await createTeam(db);
    expect((await admin.get(`/api/v1/admin/clients/${team.company.id}/impersonate`)).status).toBe(200);
    expect((await admin.get('/api/v1/core/leave_impersonation')).status).toBe(200);
    const listed = await admin.get(`/api/v1/admin/clients/${team.company.id}/impersonations`);
    expect(listed.status).toBe(200);
    expect(listed.body.payload.map((r: { action: string }) => r.action)).toEqual(['end', 'start']);
    expect(listed.body.payload[1]).toMatchObject({ user_name: 'Super Admin', ip: '127.0.0.1' });

    const main = await signIn(team.main.email);
    const seen = await main.get('/api/v1/core/company/impersonations');
    expect(seen.body.payload).toEqual(listed.body.payload);
    const plain = await signIn(team.plain.email);
    const refused = await plain.get('/api/v1/core/company/impersonations');
    expect([refused.status, refused.body.code]).toEqual([403, 90038]);
    const other = await signIn((await createTeam(db)).main.email);
    expect((await other.get('/api/v1/core/company/impersonations')).body.payload).toEqual([]);
  });

  it('refuses users and dashboards beyond the client limits (90041, 90042) and shows limits with use', async () => {
    const admin = await superAdmin();
    const team = await createTeam(db);
    const set = await admin.put(`/api/v1/admin/clients/${team.company.id}`, {
      limits: { max_users: 3, max_dashboards: 0, max_devices: 10 },
    });
    expect(set.status).toBe(200);
    const main = await signIn(team.main.email);
    const user = await main.post('/api/v1/core/users', { email: uniqueEmail(), name: 'One too many' });
    expect([user.status, user.body.code]).toEqual([409, 90041]);
    const dashboard = await main.post('/api/v1/core/company/dashboards', { name: 'Over the limit' });
    expect([dashboard.status, dashboard.body.code]).toEqual([409, 90042]);
    const limits = await main.get('/api/v1/core/company/limits');
    expect(limits.body.payload).toEqual(
      expect.arrayContaining([
        { key: 'max_users', limit: 3, used: 3 },
        { key: 'max_dashboards', limit: 0, used: 0 },
        { key: 'max_devices', limit: 10, used: 0 },
        { key: 'max_rules_per_device', limit: null, used: 0 },
      ]),
    );
    expect((await admin.get(`/api/v1/admin/clients/${team.company.id}/limits`)).body.payload).toEqual(
      limits.body.payload,
    );
    // Removing a limit (null) lets the client create again.
    await admin.put(`/api/v1/admin/clients/${team.company.id}`, { limits: { max_users: null } });
    expect((await main.post('/api/v1/core/users', { email: uniqueEmail(), name: 'Now fine' })).status).toBe(
      200,
    );
  });
});
