/**
 * Values kept in memory until an announced change clears them, and at most `ttlMs`: what the session
 * cache (auth-cache.ts) and the answer caches (answer-cache.ts) share. A read that began before a clear is
 * not stored (`mark` before the read, `set` with that mark); while announcements may be missed (`suspend`:
 * the LISTEN connection is not in effect) nothing is served from memory.
 *
 * Keys may name a scope (`options.scopeOf`, e.g. the company an answer is of): `clearScope` drops that
 * scope's entries and keeps every other, so one company's uplinks do not empty the cache of all the others.
 */
export class AnnouncedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number; scope: string | undefined }>();
  private readonly keysOfScope = new Map<string, Set<string>>();
  /** Counts clears; a mark is its value when the read began. */
  private clock = 0;
  private lastClear = 0;
  private readonly lastScopeClear = new Map<string, number>();
  private live: boolean;

  constructor(
    private readonly ttlMs: number,
    private readonly options: {
      /** Past this many entries the cache starts over. */
      maxEntries: number;
      /** Whether it serves before the first `resume` (false: only once its announcements are heard). */
      live: boolean;
      /** An entry's own end, besides its lifetime (a session's expiry). */
      stillValid?: (value: V, now: number) => boolean;
      /** The scope a key belongs to, if any (`clearScope`). */
      scopeOf?: (key: string) => string;
    },
  ) {
    this.live = options.live;
  }

  get active(): boolean {
    return this.ttlMs > 0 && this.live;
  }

  /** The live entry of `key`, if any. */
  get(key: string, now = Date.now()): V | undefined {
    if (!this.active) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now && (this.options.stillValid?.(entry.value, now) ?? true)) return entry.value;
    this.remove(key);
    return undefined;
  }

  /** Taken before a read; `set` stores its result only if nothing it depends on was cleared meanwhile. */
  mark(): number {
    return this.clock;
  }

  set(key: string, value: V, mark: number, now = Date.now()): void {
    if (!this.active || this.lastClear > mark) return;
    const scope = this.options.scopeOf?.(key);
    if (scope !== undefined && (this.lastScopeClear.get(scope) ?? 0) > mark) return;
    if (this.entries.size >= this.options.maxEntries) this.dropAll();
    this.remove(key);
    this.entries.set(key, { value, until: now + this.ttlMs, scope });
    if (scope !== undefined) {
      const keys = this.keysOfScope.get(scope) ?? new Set<string>();
      keys.add(key);
      this.keysOfScope.set(scope, keys);
    }
  }

  clear(): void {
    this.lastClear = ++this.clock;
    // Every older scope clear is before this one: marks from before it are refused anyway.
    this.lastScopeClear.clear();
    this.dropAll();
  }

  /** Drops the entries of `scope` (and refuses reads of it that began before). */
  clearScope(scope: string): void {
    this.lastScopeClear.set(scope, ++this.clock);
    for (const key of this.keysOfScope.get(scope) ?? []) this.entries.delete(key);
    this.keysOfScope.delete(scope);
  }

  /** Announcements may be missed from now on: serve nothing from memory. */
  suspend(): void {
    this.live = false;
    this.clear();
  }

  resume(): void {
    this.clear();
    this.live = true;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (entry.scope !== undefined) this.keysOfScope.get(entry.scope)?.delete(key);
  }

  private dropAll(): void {
    this.entries.clear();
    this.keysOfScope.clear();
  }
}
