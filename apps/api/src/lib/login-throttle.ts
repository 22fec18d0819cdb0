/**
 * Slows down failed logins without locking anyone out (issue #28). Failures are counted per account and
 * address pair: after `pair.max` of them, each further attempt from that address at that account waits a
 * delay that doubles with every failure (1 s, 2 s, 4 s ... up to the pair's window). An address with
 * `address.max` failures across accounts waits until its window ends. A right password from an address
 * that did not fail is never refused: a wrong password elsewhere cannot lock the owner out. Instead the
 * account's failures from every address are counted, so that its user can be told.
 *
 * The counts live in the process: in the distributed profile each API process counts on its own, which
 * multiplies the allowance by the number of processes.
 */
export interface ThrottleOptions {
  /**
   * Failures of one account from one address before attempts wait; the first wait (default 1 s) doubles
   * with each further failure, and windowMs caps it.
   */
  pair: { max: number; windowMs: number; firstDelayMs?: number };
  /** Failures from one address across all accounts within the window. */
  address: { max: number; windowMs: number };
  /** Failures of one account from any address within the pair window that make its user be told. */
  notifyAfter?: number;
}

export interface FailureCount {
  /** Failures of the account within the window, from every address. */
  failures: number;
  /** Addresses they came from. */
  addresses: number;
}

interface PairEntry {
  failures: number;
  lastAt: number;
}

interface WindowEntry {
  failures: number;
  resetAt: number;
  addresses?: Set<string>;
}

const FIRST_DELAY_MS = 1000;
// Bounds memory when someone sprays many addresses: expired entries are dropped past this size.
const PRUNE_ABOVE = 10_000;

export class LoginThrottle {
  private readonly pairs = new Map<string, PairEntry>();
  private readonly addresses = new Map<string, WindowEntry>();
  private readonly accounts = new Map<string, WindowEntry>();

  constructor(
    private readonly options: ThrottleOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** The failures a user is told of: the account's count when it reaches this. */
  get notifyAfter(): number {
    return this.options.notifyAfter ?? 5;
  }

  /** Whether an attempt at `account` from `address` must wait (it is then not checked at all). */
  isBlocked(account: string, address: string): boolean {
    const now = this.now();
    const byAddress = live(this.addresses, address, now);
    if (byAddress && byAddress.failures >= this.options.address.max) return true;
    const pair = this.pairs.get(pairKey(account, address));
    if (!pair) return false;
    if (pair.lastAt + this.options.pair.windowMs <= now) {
      this.pairs.delete(pairKey(account, address));
      return false;
    }
    return now < pair.lastAt + this.delayAfter(pair.failures);
  }

  /** Counts a failure; answers the account's failures within the window, from every address. */
  recordFailure(account: string, address: string): FailureCount {
    const now = this.now();
    if (this.pairs.size + this.addresses.size + this.accounts.size >= PRUNE_ABOVE) this.prune(now);
    const key = pairKey(account, address);
    const pair = this.pairs.get(key);
    const stale = !pair || pair.lastAt + this.options.pair.windowMs <= now;
    this.pairs.set(key, { failures: stale ? 1 : pair.failures + 1, lastAt: now });
    count(this.addresses, address, now, this.options.address.windowMs);
    const byAccount = count(this.accounts, account.toLowerCase(), now, this.options.pair.windowMs);
    byAccount.addresses ??= new Set();
    byAccount.addresses.add(address);
    return { failures: byAccount.failures, addresses: byAccount.addresses.size };
  }

  /** A successful login forgets the failures of its account and address pair only. */
  reset(account: string, address: string): void {
    this.pairs.delete(pairKey(account, address));
  }

  /** How long an attempt waits after `failures` failures of its pair: nothing, then 1 s doubling. */
  private delayAfter(failures: number): number {
    const over = failures - this.options.pair.max;
    if (over < 0) return 0;
    const first = this.options.pair.firstDelayMs ?? FIRST_DELAY_MS;
    return Math.min(first * 2 ** Math.min(over, 30), this.options.pair.windowMs);
  }

  private prune(now: number): void {
    for (const [key, pair] of this.pairs)
      if (pair.lastAt + this.options.pair.windowMs <= now) this.pairs.delete(key);
    for (const map of [this.addresses, this.accounts])
      for (const [key, entry] of map) if (entry.resetAt <= now) map.delete(key);
  }
}

const pairKey = (account: string, address: string) => `${account.toLowerCase()}\n${address}`;

function live(map: Map<string, WindowEntry>, key: string, now: number): WindowEntry | undefined {
  const entry = map.get(key);
  if (entry && entry.resetAt <= now) {
    map.delete(key);
    return undefined;
  }
  return entry;
}

function count(map: Map<string, WindowEntry>, key: string, now: number, windowMs: number): WindowEntry {
  const entry = live(map, key, now);
  if (entry) {
    entry.failures += 1;
    return entry;
  }
  const fresh = { failures: 1, resetAt: now + windowMs };
  map.set(key, fresh);
  return fresh;
}
