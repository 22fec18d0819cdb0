import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../../../lib/tokens';
import { buildTestApp } from '../../../../test/app';
import { TestClient } from '../../../../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../../../../test/databases';
import { createTeam, createUser, PASSWORD } from '../../../../test/fixtures';

const NEW_PASSWORD = 'Brand-New-Pass9?';

describe.each(DB_KINDS)('forgot and reset password on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db, { rateLimits: { forgotPerAddress: { max: 1000, windowMs: 60_000 } } });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  async function outboxFor(email: string) {
    // The mail leaves after the answer (issue #28): wait for it.
    await app.deps.afterAnswer.settled();
    const { rows } = await db.query<{
      body: string;
      subject: string;
      recipients: string[];
      sent_at: Date | null;
    }>(
      'SELECT body, subject, recipients, sent_at FROM outbox_emails WHERE $1 = ANY(recipients) ORDER BY id',
      [email],
    );
    return rows;
  }

  async function requestLink(email: string): Promise<string> {
    const client = new TestClient(app);
    await client.csrf();
    const res = await client.post('/api/v1/auth/forgot-password', { email });
    expect(res.status).toBe(200);
    const mails = await outboxFor(email);
    const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(mails.at(-1)?.body ?? '')?.[1];
    if (!token) throw new Error('no reset link in the outbox');
    return token;
  }

  it('answers the same for a known and an unknown address; only the known one gets mail', async () => {
    const { plain } = await createTeam(db);
    const client = new TestClient(app);
    await client.csrf();
    const known = await client.post('/api/v1/auth/forgot-password', { email: plain.email });
    const unknown = await client.post('/api/v1/auth/forgot-password', { email: 'ghost@example.test' });
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);
    const mails = await outboxFor(plain.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.sent_at).toBeNull();
    expect(mails[0]!.body).toContain('http://console.test/login/reset-password/');
    expect(await outboxFor('ghost@example.test')).toHaveLength(0);
  });

  it('stores only the hash of the token', async () => {
    const { plain } = await createTeam(db);
    const token = await requestLink(plain.email);
    const { rows } = await db.query<{ token_hash: string }>(
      'SELECT token_hash FROM password_reset_tokens WHERE user_id = $1',
      [plain.id],
    );
    expect(rows.map((r) => r.token_hash)).toEqual([sha256(token)]);
  });

  it('resets the password once: new password works, old does not, sessions revoked, forced reset cleared', async () => {
    const { company } = await createTeam(db);
    const user = await createUser(db, company.id, { requirePasswordReset: true });
    const loggedIn = new TestClient(app);
    await loggedIn.login(user.email, PASSWORD);
    const token = await requestLink(user.email);

    const client = new TestClient(app);
    await client.csrf();
    const res = await client.post('/api/v1/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect((await loggedIn.get('/api/v1/core/user')).body.code).toBe(76);

    const again = await client.post('/api/v1/auth/reset-password', { token, password: 'Another-Pass7!' });
    expect([again.status, again.body.code]).toEqual([422, 67]);

    const old = new TestClient(app);
    await old.csrf();
    expect((await old.post('/api/v1/auth/login', { email: user.email, password: PASSWORD })).body.code).toBe(
      2,
    );
    const fresh = await new TestClient(app).login(user.email, NEW_PASSWORD);
    expect(fresh.body.payload.require_password_reset).toBe(false);
  });

  it('refuses an expired token (67) and an unknown token (31)', async () => {
    const { plain } = await createTeam(db);
    const token = await requestLink(plain.email);
    await db.query(
      `UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
      [sha256(token)],
    );
    const client = new TestClient(app);
    await client.csrf();
    const expired = await client.post('/api/v1/auth/reset-password', { token, password: NEW_PASSWORD });
    expect([expired.status, expired.body.code]).toEqual([422, 67]);
    const unknown = await client.post('/api/v1/auth/reset-password', {
      token: 'not-a-token',
      password: NEW_PASSWORD,
    });
    expect([unknown.status, unknown.body.code]).toEqual([422, 31]);
  });

  it.each([
    ['no uppercase', 'lower-case-only1!', 'error.password-uppercase'],
    ['no digit', 'No-Digits-Here!', 'error.password-number'],
    ['no special character', 'NoSpecial12345', 'error.password-special-char'],
    ['shorter than 10', 'Sh0rt!pw', 'error.password-minlength'],
  ])('refuses a password with %s (422, %s) and keeps the token usable', async (_label, password, key) => {
    const { plain } = await createTeam(db);
    const token = await requestLink(plain.email);
    const client = new TestClient(app);
    await client.csrf();
    const res = await client.post('/api/v1/auth/reset-password', { token, password });
    expect([res.status, res.body.code, res.body.details?.fields?.password?.key]).toEqual([422, 422, key]);
    const ok = await client.post('/api/v1/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(ok.status).toBe(200);
  });

  it('lets a user under forced reset set a password with the session alone, keeping that session', async () => {
    const { company } = await createTeam(db);
    const user = await createUser(db, company.id, { requirePasswordReset: true });
    const other = new TestClient(app);
    await other.login(user.email, PASSWORD);
    const client = new TestClient(app);
    await client.login(user.email, PASSWORD);
    const res = await client.post('/api/v1/auth/reset-password', { password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const me = await client.get('/api/v1/core/user');
    expect(me.body.payload.require_password_reset).toBe(false);
    expect((await other.get('/api/v1/core/user')).body.code).toBe(76);
    // Without forced reset the current password is required.
    const noCurrent = await client.post('/api/v1/auth/reset-password', { password: 'Third-Pass-77!' });
    expect(noCurrent.body.code).toBe(71);
    const withCurrent = await client.post('/api/v1/auth/reset-password', {
      password: 'Third-Pass-77!',
      current_password: NEW_PASSWORD,
    });
    expect(withCurrent.status).toBe(200);
  });

  it('limits reset requests per client address (429) without revealing anything else', async () => {
    const limited = buildTestApp(db, { rateLimits: { forgotPerAddress: { max: 2, windowMs: 60_000 } } });
    await limited.ready();
    try {
      const client = new TestClient(limited, '10.0.0.9');
      await client.csrf();
      for (let i = 0; i < 2; i++) {
        expect((await client.post('/api/v1/auth/forgot-password', { email: 'a@example.test' })).status).toBe(
          200,
        );
      }
      const res = await client.post('/api/v1/auth/forgot-password', { email: 'a@example.test' });
      expect(res.status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('expires links after the configured lifetime (default one hour)', async () => {
    const { plain } = await createTeam(db);
    const token = await requestLink(plain.email);
    const { rows } = await db.query<{ seconds: number }>(
      'SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM password_reset_tokens WHERE token_hash = $1',
      [sha256(token)],
    );
    expect(rows[0]!.seconds).toBeGreaterThanOrEqual(3599);
    expect(rows[0]!.seconds).toBeLessThanOrEqual(3601);
  });

  it('refuses a confirmation that differs from the password (422, error.confirmation)', async () => {
    const { plain } = await createTeam(db);
    const token = await requestLink(plain.email);
    const client = new TestClient(app);
    await client.csrf();
    const res = await client.post('/api/v1/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
      password_confirmation: 'Something-Else1!',
    });
    expect([res.status, res.body.details?.fields?.password_confirmation?.key]).toEqual([
      422,
      'error.confirmation',
    ]);
  });

  it('needs a token or a session (68 without either)', async () => {
    const client = new TestClient(app);
    await client.csrf();
    const res = await client.post('/api/v1/auth/reset-password', { password: NEW_PASSWORD });
    expect([res.status, res.body.code]).toEqual([422, 68]);
  });
});
