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

interface Entry {
  auth: CachedAuth;
  until: number;
}

/** Enough for every signed-in console of a large installation; past it the cache starts over. */
const MAX_ENTRIES = 20_000;

export class AuthCache {
  /** Names this process in its announcements, so it skips its own. */
  readonly id = randomUUID();
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private enabled = true;

  constructor(private readonly ttlMs: number) {}

  get active(): boolean {
    return this.ttlMs > 0 && this.enabled;
  }

  /** The live entry of a session id, if any. */
  get(sessionId: string, now = Date.now()): CachedAuth | undefined {
    if (!this.active) return undefined;
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.until <= now || entry.auth.endsAt <= now) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry.auth;
  }

  /** Taken before a lookup; `set` stores its result only if nothing was invalidated meanwhile. */
  mark(): number {
    return this.generation;
  }

  set(sessionId: string, auth: CachedAuth, mark: number, now = Date.now()): void {
    if (!this.active || mark !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(sessionId, { auth, until: now + this.ttlMs });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** While announcements may be missed (the LISTEN connection is down), serve nothing from memory. */
  suspend(): void {
    this.enabled = false;
    this.clear();
  }

  resume(): void {
    this.clear();
    this.enabled = true;
  }
}
