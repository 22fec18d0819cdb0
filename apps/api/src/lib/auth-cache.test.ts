/**
 * The session cache (issue #29): a signed-in request is answered from memory, and every change that ends
 * or narrows a session (sign-out, a blocked company) takes effect at once, in every API process.
 */
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, useCachingApps } from '../test/caching-apps';
import { TestClient } from '../test/client';
import { DB_KINDS } from '../test/databases';
import { createTeam, PASSWORD } from '../test/fixtures';
import { AuthCache } from './auth-cache';
import { sha256 } from './tokens';

describe('AuthCache', () => {
  const auth = { user: {}, companyId: 1, realCompanyId: 1, company: {}, csrfToken: 't' } as never;

  it('keeps an entry for its lifetime and never past the session end', () => {
    const cache = new AuthCache(1000);
    cache.set('a', { ...(auth as object), endsAt: 10_500 } as never, cache.mark(), 10_000);
    expect(cache.get('a', 10_400)).toBeDefined();
    expect(cache.get('a', 10_600)).toBeUndefined();
    cache.set('b', { ...(auth as object), endsAt: 99_000 } as never, cache.mark(), 10_000);
    expect(cache.get('b', 11_000)).toBeUndefined();
  });

  it('drops a lookup that raced with an invalidation, and serves nothing while suspended', () => {
    const cache = new AuthCache(1000);
    const mark = cache.mark();
    cache.clear();
    cache.set('a', { ...(auth as object), endsAt: Infinity } as never, mark);
    expect(cache.get('a')).toBeUndefined();
    cache.suspend();
    cache.set('a', { ...(auth as object), endsAt: Infinity } as never, cache.mark());
    expect(cache.get('a')).toBeUndefined();
    cache.resume();
    cache.set('a', { ...(auth as object), endsAt: Infinity } as never, cache.mark());
    expect(cache.get('a')).toBeDefined();
  });
});

describe.each(DB_KINDS)('the session cache on %s', (kind) => {
  const env = useCachingApps(kind);
  let db: Db;
  let apps: FastifyInstance[];
  beforeAll(() => {
    ({ db, apps } = env);
  });

  /** A client signed in at the first app and one using the same cookies at the last. */
  async function signedIn() {
    const { plain, company } = await createTeam(db);
    const first = new TestClient(apps[0] as FastifyInstance);
    await first.login(plain.email, PASSWORD);
    const last = new TestClient(apps.at(-1) as FastifyInstance);
    for (const [name, value] of first.jar) last.jar.set(name, value);
    return { first, last, company };
  }

  it('answers a signed-in request from memory', async () => {
    const { first } = await signedIn();
    expect((await first.get('/api/v1/core/user')).status).toBe(200);
    // Removed behind the API's back: the cached session still answers, for at most SESSION_CACHE_SECONDS.
    await db.query('DELETE FROM sessions WHERE id = $1', [sha256(first.jar.get('iot_session') ?? '')]);
    expect((await first.get('/api/v1/core/user')).status).toBe(200);
  });

  it('ends a session at sign-out at once, in every API process', async () => {
    const { first, last } = await signedIn();
    const cookies = new Map(first.jar);
    expect((await last.get('/api/v1/core/user')).status).toBe(200);
    expect((await first.post('/api/v1/auth/logout')).status).toBe(200);
    for (const [name, value] of cookies) last.jar.set(name, value);
    await until('the other process to forget the session', async () => {
      for (const [name, value] of cookies) last.jar.set(name, value);
      return (await last.get('/api/v1/core/user')).status === 401;
    });
  });

  it('refuses a company blocked outside the API once its change is announced', async () => {
    const { last, company } = await signedIn();
    expect((await last.get('/api/v1/core/user')).status).toBe(200);
    await db.query('UPDATE companies SET blocked = true WHERE id = $1', [company.id]);
    await until('the blocked company to be refused', async () => {
      const answer = await last.get('/api/v1/core/user');
      return answer.status !== 200;
    });
  });
});
