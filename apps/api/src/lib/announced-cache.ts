/**
 * Values kept in memory until an announced change clears them, and at most `ttlMs`: what the session
 * cache (auth-cache.ts) and the answer cache (answer-cache.ts) share. A read that began before a clear is
 * not stored (`mark` before the read, `set` with that mark); while announcements may be missed (`suspend`:
 * the LISTEN connection is not in effect) nothing is served from memory.
 */
export class AnnouncedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private generation = 0;
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
    this.entries.delete(key);
    return undefined;
  }

  /** Taken before a read; `set` stores its result only if nothing was cleared meanwhile. */
  mark(): number {
    return this.generation;
  }

  set(key: string, value: V, mark: number, now = Date.now()): void {
    if (!this.active || mark !== this.generation) return;
    if (this.entries.size >= this.options.maxEntries) this.entries.clear();
    this.entries.set(key, { value, until: now + this.ttlMs });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
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
}
