/**
 * Answers kept in memory until what they were read from changes: the alarm poll (issue #29), which every
 * open console sends every few seconds and which changes far less often. An entry is the serialised body
 * under a key that holds everything the answer depends on (the acting company, the user's language, the
 * URL); whoever may read the route may read the entry, the route's guards run before it.
 *
 * Never served stale after a change that was announced: every mutating API request clears it before its
 * answer goes out (and the other API processes on `iot_auth_changed`), alarms raised or cleared elsewhere
 * arrive on `iot_alarms_changed`, companies on `iot_company_changed` (plugins/answer-cache.ts). Nothing is
 * served until those LISTENs are in effect, nor while their connection is lost. A read that began before
 * a clear is not stored (`mark`). What no one announces (a script editing the database) shows after at most
 * the entry's lifetime.
 */

interface Entry {
  body: string;
  until: number;
}

/** Enough for every company's few variants of the poll; past it the cache starts over. */
const MAX_ENTRIES = 10_000;

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private listening = false;

  constructor(private readonly ttlMs: number) {}

  get active(): boolean {
    return this.ttlMs > 0 && this.listening;
  }

  get(key: string, now = Date.now()): string | undefined {
    if (!this.active) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.body;
    this.entries.delete(key);
    return undefined;
  }

  /** Taken before a read; `set` stores its answer only if nothing was cleared meanwhile. */
  mark(): number {
    return this.generation;
  }

  set(key: string, body: string, mark: number, now = Date.now()): void {
    if (!this.active || mark !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { body, until: now + this.ttlMs });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Announcements may be missed (no LISTEN yet, or its connection lost): serve nothing from memory. */
  suspend(): void {
    this.listening = false;
    this.clear();
  }

  resume(): void {
    this.clear();
    this.listening = true;
  }
}
