import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../../../lib/tokens';
import { buildTestApp } from '../../../../test/app';
import { TestClient } from '../../../../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../../../../test/databases';
import { createCompany, createTeam, createUser, PASSWORD } from '../../../../test/fixtures';

describe.each(DB_KINDS)('auth and sessions on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db, {
      rateLimits: {
        loginPerAddress: { max: 1000, windowMs: 60_000 },
        loginPerAccountAndAddress: { max: 3, windowMs: 60_000, firstDelayMs: 60_000 },
        forgotPerAddress: { max: 1000, windowMs: 60_000 },
      },
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  it('issues a readable XSRF-TOKEN and an HttpOnly signed pre-session cookie, at the root and under /api/v1', async () => {
    for (const path of ['/sanctum/csrf-cookie', '/api/v1/sanctum/csrf-cookie']) {
      const client = new TestClient(app);
      const res = await client.get(path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ payload: null });
      const xsrf = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
      const pre = res.cookies.find((c) => c.name === 'iot_presession');
      expect(xsrf?.httpOnly).toBeFalsy();
      expect(xsrf?.value.length).toBeGreaterThan(20);
      expect(pre?.httpOnly).toBe(true);
      expect(pre?.sameSite).toBe('Lax');
    }
  });

  it('logs in: answers the user, sets an HttpOnly SameSite=Lax session cookie, stores only its hash', async () => {
    const { company, main } = await createTeam(db);
    const client = new TestClient(app);
    const res = await client.login(main.email.toUpperCase(), PASSWORD);
    expect(res.body.payload).toMatchObject({
      id: main.id,
      email: main.email,
      roles: ['ROLE_MAINUSER'],
      company_id: company.id,
      impersonated: false,
      eula_accepted: true,
      require_password_reset: false,
      company: { id: company.id, name: company.name, modules: [] },
    });
    expect(res.body.payload.last_login).toEqual(expect.any(String));
    const sessionCookie = res.cookies.find((c) => c.name === 'iot_session')!;
    expect(sessionCookie.httpOnly).toBe(true);
    expect(sessionCookie.sameSite).toBe('Lax');
    const { rows } = await db.query<{ id: string; csrf_token: string }>(
      'SELECT id, csrf_token FROM sessions WHERE user_id = $1',
      [main.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(sha256(sessionCookie.value));
    expect(rows[0]!.id).not.toBe(sessionCookie.value);
    // The XSRF token is now bound to the session, and the csrf-cookie call answers that same token.
    expect(client.jar.get('XSRF-TOKEN')).toBe(rows[0]!.csrf_token);
    expect(client.jar.has('iot_presession')).toBe(false);
    await client.get('/sanctum/csrf-cookie');
    expect(client.jar.get('XSRF-TOKEN')).toBe(rows[0]!.csrf_token);
    const me = await client.get('/api/v1/core/user');
    expect(me.status).toBe(200);
    expect(me.body.payload.id).toBe(main.id);
  });

  it.each([
    ['wrong password', 'right-user', 'Wrong-Password1!'],
    ['unknown address', 'nobody@example.test', PASSWORD],
  ])('refuses a login with %s: 401 code 2, no session', async (_label, who, password) => {
    const { plain } = await createTeam(db);
    const client = new TestClient(app);
    await client.csrf();
    const email = who === 'right-user' ? plain.email : who;
    const res = await client.post('/api/v1/auth/login', { email, password });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(2);
    expect(client.jar.has('iot_session')).toBe(false);
    const { rows } = await db.query('SELECT 1 FROM sessions WHERE user_id = $1', [plain.id]);
    expect(rows).toHaveLength(0);
  });

  it('refuses a user without company with 74 and a blocked or deleted company with 75', async () => {
    const orphan = await createUser(db, null);
    const blocked = await createCompany(db, { blocked: true });
    const blockedUser = await createUser(db, blocked.id);
    const deleted = await createCompany(db);
    const deletedUser = await createUser(db, deleted.id);
    await db.query('UPDATE companies SET deleted_at = now() WHERE id = $1', [deleted.id]);
    const cases: [string, number, number][] = [
      [orphan.email, 403, 74],
      [blockedUser.email, 403, 75],
      [deletedUser.email, 403, 75],
    ];
    for (const [email, status, code] of cases) {
      const client = new TestClient(app);
      await client.csrf();
      const res = await client.post('/api/v1/auth/login', { email, password: PASSWORD });
      expect([email, res.status, res.body.code]).toEqual([email, status, code]);
    }
  });

  it('stops the sessions of a company once it is blocked (75) and lets them work again when unblocked', async () => {
    const { company, plain } = await createTeam(db);
    const client = new TestClient(app);
    await client.login(plain.email, PASSWORD);
    await db.query('UPDATE companies SET blocked = true WHERE id = $1', [company.id]);
    const res = await client.get('/api/v1/core/user');
    expect([res.status, res.body.code]).toEqual([403, 75]);
    await db.query('UPDATE companies SET blocked = false WHERE id = $1', [company.id]);
    expect((await client.get('/api/v1/core/user')).status).toBe(200);
  });

  it('answers 76 without a session and with an unknown session cookie', async () => {
    const anonymous = new TestClient(app);
    const res = await anonymous.get('/api/v1/core/user');
    expect([res.status, res.body]).toEqual([401, { code: 76, message: expect.any(String) }]);
    anonymous.jar.set('iot_session', 'forged-token');
    expect((await anonymous.get('/api/v1/core/user')).body.code).toBe(76);
  });

  it('logs out: the session row is deleted and the old cookie no longer works', async () => {
    const { plain } = await createTeam(db);
    const client = new TestClient(app);
    await client.login(plain.email, PASSWORD);
    const token = client.jar.get('iot_session')!;
    const res = await client.post('/api/v1/auth/logout');
    expect(res.status).toBe(200);
    const { rows } = await db.query('SELECT 1 FROM sessions WHERE id = $1', [sha256(token)]);
    expect(rows).toHaveLength(0);
    const replay = new TestClient(app);
    replay.jar.set('iot_session', token);
    expect((await replay.get('/api/v1/core/user')).body.code).toBe(76);
  });

  it('expires a session after its lifetime (7200 s) and slides the expiry on use', async () => {
    const { plain } = await createTeam(db);
    const client = new TestClient(app);
    await client.login(plain.email, PASSWORD);
    const id = sha256(client.jar.get('iot_session')!);
    const { rows: created } = await db.query<{ seconds: number }>(
      'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM sessions WHERE id = $1',
      [id],
    );
    expect(created[0]!.seconds).toBe(7200);

    // Used after an hour: the expiry moves to 7200 s after that use.
    await db.query(
      `UPDATE sessions SET last_seen_at = now() - interval '1 hour', expires_at = now() + interval '1 hour' WHERE id = $1`,
      [id],
    );
    expect((await client.get('/api/v1/core/user')).status).toBe(200);
    const { rows: slid } = await db.query<{ left: number }>(
      'SELECT extract(epoch FROM expires_at - now())::int AS left FROM sessions WHERE id = $1',
      [id],
    );
    expect(slid[0]!.left).toBeGreaterThan(7100);

    await db.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const res = await client.get('/api/v1/core/user');
    expect([res.status, res.body.code]).toEqual([401, 76]);
  });

  it('replaces an existing session on a new login (no session fixation)', async () => {
    const { plain } = await createTeam(db);
    const client = new TestClient(app);
    await client.login(plain.email, PASSWORD);
    const first = client.jar.get('iot_session')!;
    await client.post('/api/v1/auth/login', { email: plain.email, password: PASSWORD });
    expect(client.jar.get('iot_session')).not.toBe(first);
    const { rows } = await db.query('SELECT 1 FROM sessions WHERE id = $1', [sha256(first)]);
    expect(rows).toHaveLength(0);
  });

  describe('CSRF', () => {
    it('refuses a login without the token, with a wrong one, and with a token of another browser (77)', async () => {
      const { plain } = await createTeam(db);
      const other = new TestClient(app);
      const foreignToken = await other.csrf();
      const cases: [string, (c: TestClient) => Promise<unknown>][] = [
        ['no token at all', async () => {}],
        ['cookie but no header', async (c) => c.csrf()],
        ['wrong header', async (c) => c.csrf()],
        ['token of another pre-session', async (c) => c.csrf()],
      ];
      for (const [label, prepare] of cases) {
        const client = new TestClient(app);
        await prepare(client);
        const csrf =
          label === 'cookie but no header'
            ? false
            : label === 'wrong header'
              ? 'abc'
              : label.startsWith('token of')
                ? foreignToken
                : true;
        const res = await client.post(
          '/api/v1/auth/login',
          { email: plain.email, password: PASSWORD },
          { csrf },
        );
        expect([label, res.status, res.body.code]).toEqual([label, 419, 77]);
        expect(client.jar.has('iot_session')).toBe(false);
      }
      const { rows } = await db.query('SELECT 1 FROM sessions WHERE user_id = $1', [plain.id]);
      expect(rows).toHaveLength(0);
    });

    it('refuses mutating calls of a session without its token (77) and changes nothing', async () => {
      const { company, main } = await createTeam(db);
      const client = new TestClient(app);
      await client.login(main.email, PASSWORD);
      const other = new TestClient(app);
      const preToken = await other.csrf();
      const { rows: before } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM users WHERE company_id = $1',
        [company.id],
      );
      for (const csrf of [false, 'wrong', preToken]) {
        const renamed = await client.put('/api/v1/core/company/', { name: 'Hijacked' }, { csrf });
        expect([renamed.status, renamed.body.code]).toEqual([419, 77]);
        const created = await client.post(
          '/api/v1/core/users',
          { email: 'csrf@example.test', name: 'x', password: PASSWORD },
          { csrf },
        );
        expect(created.body.code).toBe(77);
        const deleted = await client.delete(`/api/v1/core/users/${main.id}`, { csrf });
        expect(deleted.body.code).toBe(77);
        const logout = await client.post('/api/v1/auth/logout', {}, { csrf });
        expect(logout.body.code).toBe(77);
      }
      const { rows: name } = await db.query<{ name: string }>('SELECT name FROM companies WHERE id = $1', [
        company.id,
      ]);
      expect(name[0]!.name).toBe(company.name);
      const { rows: after } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM users WHERE company_id = $1',
        [company.id],
      );
      expect(after[0]!.n).toBe(before[0]!.n);
      expect((await client.get('/api/v1/core/user')).status).toBe(200);
      // With the token the same call goes through.
      expect((await client.put('/api/v1/core/company/', { name: 'Renamed' })).status).toBe(200);
    });
  });

  describe('rate limits', () => {
    it('makes an address wait after 3 failed logins at an account with 429 code 2, even for the right password', async () => {
      const { plain } = await createTeam(db);
      const client = new TestClient(app);
      await client.csrf();
      for (let i = 0; i < 3; i++) {
        const res = await client.post('/api/v1/auth/login', {
          email: plain.email,
          password: 'Wrong-Password1!',
        });
        expect(res.status).toBe(401);
      }
      const res = await client.post('/api/v1/auth/login', { email: plain.email, password: PASSWORD });
      expect([res.status, res.body.code]).toEqual([429, 2]);
      // Another account from the same address is not affected.
      const { main } = await createTeam(db);
      expect(
        (await client.post('/api/v1/auth/login', { email: main.email, password: PASSWORD })).status,
      ).toBe(200);
    });

    it('limits login attempts per client address with 429 code 2', async () => {
      const limited = buildTestApp(db, {
        rateLimits: { loginPerAddress: { max: 2, windowMs: 60_000 } },
      });
      await limited.ready();
      try {
        const { plain } = await createTeam(db);
        const client = new TestClient(limited, '10.0.0.7');
        await client.csrf();
        for (let i = 0; i < 2; i++) {
          const res = await client.post('/api/v1/auth/login', { email: `n${i}@example.test`, password: 'x' });
          expect(res.status).toBe(401);
        }
        const res = await client.post('/api/v1/auth/login', { email: plain.email, password: PASSWORD });
        expect([res.status, res.body.code]).toEqual([429, 2]);
        const elsewhere = new TestClient(limited, '10.0.0.8');
        await elsewhere.csrf();
        expect(
          (await elsewhere.post('/api/v1/auth/login', { email: plain.email, password: PASSWORD })).status,
        ).toBe(200);
      } finally {
        await limited.close();
      }
    });
  });
});
