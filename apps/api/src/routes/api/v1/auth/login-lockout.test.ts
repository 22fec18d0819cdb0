/**
 * Issue #28, finding 4: wrong passwords from one address must not lock the account's owner out. Failures
 * slow down the address that made them (per account and address, and per address across accounts), and
 * the account's user is told of repeated failures by a system message.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/app';
import { TestClient } from '../../../../test/client';
import { DB_KINDS, openTestDb, type TestDb } from '../../../../test/databases';
import { createTeam, PASSWORD } from '../../../../test/fixtures';

const WRONG = 'Wrong-Password1!';

describe.each(DB_KINDS)('login throttling without lock-out on %s', (kind) => {
  let testDb: TestDb;
  let db: Db;
  let app: FastifyInstance;

  beforeAll(async () => {
    testDb = await openTestDb(kind);
    db = testDb.db;
    app = buildTestApp(db, {
      rateLimits: {
        // A long first wait, so that a slow machine does not outlast it within a test.
        loginPerAccountAndAddress: { max: 3, windowMs: 15 * 60_000, firstDelayMs: 60_000 },
        loginFailuresPerAddress: { max: 8, windowMs: 15 * 60_000 },
      },
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  const client = async (ip: string) => {
    const c = new TestClient(app, ip);
    await c.csrf();
    return c;
  };
  const attempt = (c: TestClient, email: string, password: string) =>
    c.post('/api/v1/auth/login', { email, password });

  it('lets the right password in from an address that did not fail, while the failing one waits', async () => {
    const { plain } = await createTeam(db);
    const attacker = await client('203.0.113.10');
    for (let i = 0; i < 5; i++) await attempt(attacker, plain.email, WRONG);
    const owner = await client('198.51.100.20');
    const res = await attempt(owner, plain.email, PASSWORD);
    expect(res.status).toBe(200);
    // The attacking address waits, right password or not.
    const retried = await attempt(attacker, plain.email, PASSWORD);
    expect([retried.status, retried.body.code]).toEqual([429, 2]);
  });

  it('tells the account user of repeated failures once, with a system message worded by kind', async () => {
    const { plain } = await createTeam(db);
    for (const ip of ['203.0.113.11', '203.0.113.12']) {
      const attacker = await client(ip);
      for (let i = 0; i < 3; i++) await attempt(attacker, plain.email, WRONG);
    }
    const { rows } = await db.query<{ user_id: number; kind: string; params: Record<string, unknown> }>(
      `SELECT user_id::int AS user_id, kind, params FROM messages WHERE company_id = $1`,
      [plain.companyId],
    );
    expect(rows).toEqual([
      { user_id: plain.id, kind: 'login_failures', params: { failures: 5, addresses: 2, minutes: 15 } },
    ]);
    const owner = await client('198.51.100.21');
    await owner.login(plain.email, PASSWORD);
    const list = await owner.get('/api/v1/core/messages');
    expect(list.body.payload.messages).toMatchObject([{ kind: 'login_failures' }]);
  });

  it('slows an address that fails across many accounts, even for a right password', async () => {
    const { plain, main } = await createTeam(db);
    const sprayer = await client('203.0.113.13');
    for (let i = 0; i < 8; i++) await attempt(sprayer, `nobody${i}@example.test`, WRONG);
    const res = await attempt(sprayer, main.email, PASSWORD);
    expect([res.status, res.body.code]).toEqual([429, 2]);
    // Other addresses are not affected.
    expect((await attempt(await client('198.51.100.22'), plain.email, PASSWORD)).status).toBe(200);
  });
});
