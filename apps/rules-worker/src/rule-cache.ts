import {
  type DeviceRef,
  lockDeviceRules,
  type Queryable,
  type RulesWorkerRule,
  type RuleVersionRow,
  type StateRow,
  saveRuleStates,
} from '@iot/db';

/**
 * The rules of the devices a worker evaluates, with their states, kept in memory between batches.
 * Reading ten rules with their states and actions per device in every batch was the largest statement
 * of the batch's transaction (tests/bench/README.md). A batch now asks the database only for each
 * rule's row version (`xmin`, which every UPDATE of the row changes, whoever makes it: the console,
 * the timer, another worker; a change of the rule's actions touches the row too, by the trigger of
 * migration 0012), locking the rule rows as before; only rules whose version differs from the cached
 * one are read in full. The states the batch writes come back with their new versions, so the next
 * batch finds its own writes current.
 *
 * The cache is only changed after the batch's transaction committed (`commit`); a failed batch drops
 * it whole (`forget`), because the engine may have changed nested state objects in place. The
 * database stays the truth: a cache that is wrong can only cause a full read, never an old state.
 *
 * The versions are read together with the batch's devices, fields and checks in one statement, by
 * lockRulesWorkerBatch (packages/db repositories/rule-state.ts), and handed to `resolve`.
 */
export interface RuleCache {
  /**
   * The devices' active rules, from memory where the versions match, given the versions read and locked
   * in this transaction (lockRulesWorkerBatch, with `lockRows` as in the options).
   */
  resolve(
    tx: Queryable,
    refs: readonly DeviceRef[],
    versions: readonly RuleVersionRow[],
  ): Promise<RulesWorkerRule[]>;
  /** Whether the versions must be read with a lock (RuleCacheOptions.lockRows). */
  readonly lockRows: boolean;
  /**
   * Writes new states and returns what `commit` needs once the transaction committed. `kept`: states
   * that only moved on (evaluate-device.ts progressOnly), remembered here and not written.
   */
  save(
    tx: Queryable,
    rows: readonly (StateRow & { last_fired_at: string | null })[],
    kept?: readonly { id: number; state: Record<string, unknown> }[],
  ): Promise<PendingRules>;
  commit(pending: PendingRules): void;
  forget(): void;
  readonly size: () => number;
  /** Devices whose rules were read in full since the start (a cold cache, a changed rule). */
  readonly fullReads: () => number;
}

export interface PendingRules {
  /** The locked row (its definition), the state it has now and the version the row has with it. */
  rows: Map<number, { row: RulesWorkerRule; state: Record<string, unknown>; version: string }>;
}

interface Cached {
  row: RulesWorkerRule;
  /** the rule row's xmin (which a change of its actions moves too, see RuleVersionRow) */
  version: string;
}

/** At most this many rules are kept (about 1 kB each); beyond it the oldest are dropped. */
const MAX_RULES = 200_000;

export interface RuleCacheOptions {
  /**
   * Lock the rule rows while reading their versions: needed on PostgreSQL, where the timer and other
   * workers write the same rows at the same time. `FOR NO KEY UPDATE`, the lock an UPDATE of the
   * states takes anyway: it excludes the timer (FOR UPDATE SKIP LOCKED), other workers and the console,
   * but not the key-share locks of rows that merely reference a rule (alarms; the notifier's
   * notification_log references rules without a foreign key since migration 0017), so a writer of such
   * rows never waits for a batch and cannot close a deadlock cycle with it. PGlite runs one transaction
   * at a time on its one connection, so there a lock only costs (a write to every row read).
   */
  lockRows: boolean;
}

export function createRuleCache(options: RuleCacheOptions = { lockRows: true }): RuleCache {
  const cache = new Map<number, Cached>();
  // What resolve() was given, per transaction (several batches may run at once on PostgreSQL), for save().
  // Per rule id: the row and the version the batch read.
  const batches = new WeakMap<Queryable, Map<number, Cached>>();
  let fullReads = 0;

  const api: RuleCache = {
    lockRows: options.lockRows,
    size: () => cache.size,
    fullReads: () => fullReads,
    async resolve(tx, refs, rows) {
      const locked = new Map<number, Cached>();
      batches.set(tx, locked);
      if (refs.length === 0) return [];
      const stale = staleDevices(cache, refs, rows);
      const fresh = new Map<number, RulesWorkerRule>();
      fullReads += stale.size;
      // The full read of a device's rules (FOR UPDATE: on PGlite a no-op beside the other statements).
      if (stale.size > 0)
        for (const rule of await lockDeviceRules(tx, [...stale.values()])) fresh.set(rule.id, rule);
      const result: RulesWorkerRule[] = [];
      for (const row of rows) {
        const rule = fresh.get(row.id) ?? cache.get(row.id)?.row;
        // A rule created between the two statements is not in the first: it waits for the next batch.
        if (!rule) continue;
        locked.set(row.id, { row: rule, version: row.rule_v });
        result.push(rule);
      }
      return result;
    },
    async save(tx, rows, kept = []) {
      const pending: PendingRules = { rows: new Map() };
      const locked = batches.get(tx);
      if (!locked) throw new Error('rule cache: save() without resolve() in the same transaction');
      // Unwritten: the row in the database is unchanged, so its version stays; the state is the new one.
      for (const { id, state } of kept) {
        const read = locked.get(id);
        if (read) pending.rows.set(id, { row: read.row, state, version: read.version });
      }
      if (rows.length === 0) return pending;
      // The new versions come back from the update itself (RETURNING xmin).
      const versions = await saveRuleStates(tx, rows);
      const stateOf = new Map(rows.map((r) => [r.id, r.state]));
      for (const { id, version } of versions) {
        const read = locked.get(id);
        if (!read) continue;
        pending.rows.set(id, { row: read.row, state: stateOf.get(id) as Record<string, unknown>, version });
      }
      return pending;
    },
    commit: (pending) => commitRules(cache, pending),
    forget() {
      cache.clear();
    },
  };
  return api;
}

/** The devices with a rule the cache lacks or holds in another version: their rules are read in full. */
function staleDevices(
  cache: ReadonlyMap<number, Cached>,
  refs: readonly DeviceRef[],
  rows: readonly RuleVersionRow[],
): Map<number, DeviceRef> {
  const refOf = new Map(refs.map((r) => [r.deviceId, r]));
  const stale = new Map<number, DeviceRef>();
  for (const row of rows) {
    const cached = cache.get(row.id);
    if (!cached || cached.version !== row.rule_v) {
      const ref = refOf.get(row.device_id);
      if (ref) stale.set(ref.deviceId, ref);
    }
  }
  return stale;
}

function commitRules(cache: Map<number, Cached>, pending: PendingRules): void {
  for (const [id, { row, state, version }] of pending.rows) {
    // The row gets its new state in place (no copy of its twenty columns per rule and batch): only
    // now, after the commit, and a rule's row is in one transaction at a time (locked, or PGlite's
    // one connection), so no running batch sees it change.
    row.state = state;
    cache.delete(id);
    cache.set(id, { row, version });
  }
  // Map order is insertion order: the rules not written for longest go first.
  for (const id of cache.keys()) {
    if (cache.size <= MAX_RULES) break;
    cache.delete(id);
  }
}
