/**
 * Counts failed logins per account in fixed windows. The per-address limit is @fastify/rate-limit's job;
 * this one stops a distributed guess at one account. It lives in the process: in the distributed profile
 * each API process counts on its own, which multiplies the allowance by the number of processes.
 */
export interface ThrottleOptions {
  /** Failed attempts allowed per window. */
  max: number;
  windowMs: number;
}

interface Entry {
  failures: number;
  resetAt: number;
}

// Bounds memory when someone sprays many addresses: expired entries are dropped past this size.
const PRUNE_ABOVE = 10_000;

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly options: ThrottleOptions,
    private readonly now: () => number = Date.now,
  ) {}

  isBlocked(account: string): boolean {
    const entry = this.entries.get(account.toLowerCase());
    if (!entry) return false;
    if (entry.resetAt <= this.now()) {
      this.entries.delete(account.toLowerCase());
      return false;
    }
    return entry.failures >= this.options.max;
  }

  recordFailure(account: string): void {
    const key = account.toLowerCase();
    const now = this.now();
    const entry = this.entries.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.entries.size >= PRUNE_ABOVE) this.prune(now);
      this.entries.set(key, { failures: 1, resetAt: now + this.options.windowMs });
    } else {
      entry.failures += 1;
    }
  }

  reset(account: string): void {
    this.entries.delete(account.toLowerCase());
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) if (entry.resetAt <= now) this.entries.delete(key);
  }
}
