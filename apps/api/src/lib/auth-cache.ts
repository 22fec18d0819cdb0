/**
 * Resolved sessions kept in memory for a short while (SESSION_CACHE_SECONDS), so a signed-in request does
 * not spend three statements on the database's one connection (PGlite) before its own work: measured,
 * the session lookup made a trivial signed-in route 30 times slower than bare Fastify (issue #29).
 *
 * Never served stale after a change through the API: every mutating request empties the cache when its
 * answer goes out (its transaction has committed), and a company's block, deletion, limits or modules are
 * announced on `iot_company_changed` (migration 0038's trigger) wherever they came from. With several API
 * processes on PostgreSQL a mutating request also announces `iot_auth_changed`, which empties every
 * process's cache; while that LISTEN connection is lost nothing is served from the cache. What changes the
 * database outside the API (a script editing a user) is seen after at most the cache's lifetime.
 */
import { randomUUID } from 'node:crypto';
import type { CompanyRecord, UserRecord } from '@iot/db';
import { AnnouncedCache } from './announced-cache';

export const AUTH_CHANGED_CHANNEL = 'iot_auth_changed';

/** What a request's session resolved to, without the per-request parts. */
export interface CachedAuth {
  user: UserRecord;
  companyId: number;
  realCompanyId: number;
  company: CompanyRecord;
  csrfToken: string;
  /** Epoch ms after which the session is over (idle expiry or maximum age, whichever comes first). */
  endsAt: number;
}

/** Enough for every signed-in console of a large installation; past it the cache starts over. */
const MAX_ENTRIES = 20_000;

/** Resolved sessions by session id; an entry ends with its session too. */
export class AuthCache extends AnnouncedCache<CachedAuth> {
  /** Names this process in its announcements, so it skips its own. */
  readonly id = randomUUID();

  constructor(ttlMs: number) {
    super(ttlMs, { maxEntries: MAX_ENTRIES, live: true, stillValid: (auth, now) => auth.endsAt > now });
  }
}
