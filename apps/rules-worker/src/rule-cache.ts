import {
  type DeviceRef,
  lockDeviceRules,
  type Queryable,
  type RulesWorkerRule,
  type StateRow,
  saveRuleStates,
} from '@iot/db';

/**
 * The rules of the devices a worker evaluates, with their states, kept in memory between batches.
 * Reading ten rules with their states and actions per device in every batch was the largest statement
 * of the batch's transaction (tests/bench/README.md). A batch now asks the database only for each
 * rule's row version (`xmin`, which every UPDATE of the row changes, whoever makes it: the console,
 * the timer, another worker) and its actions' versions, locking the rule rows as before; only rules
 * whose version differs from the cached one are read in full. The states the batch writes come back
 * with their new versions, so the next batch finds its own writes current.
 *
 * The cache is only changed after the batch's transaction committed (`commit`); a failed batch drops
 * it whole (`forget`), because the engine may have changed nested state objects in place. The
 * database stays the truth: a cache that is wrong can only cause a full read, never an old state.
 *
 * SQL for the versions lives here rather than in packages/db beside the other rules worker queries:
 * it exists only for this cache.
 */
export interface RuleCache {
  /** Locks the devices' active rules and returns them (from memory where the versions match). */
  lock(tx: Queryable, refs: readonly DeviceRef[]): Promise<RulesWorkerRule[]>;
  /**
   * Writes new states and returns what `commit` needs once the transaction committed. `kept`: states
   * that only moved on (evaluate-uplink-batch.ts progressOnly), remembered here and not written.
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
  rows: Map<number, { row: RulesWorkerRule; version: string }>;
}

interface Cached {
  row: RulesWorkerRule;
  /** `<rule xmin>/<action id>.<action xmin>,...` */
  version: string;
}

const PAIRS = `jsonb_to_recordset($1::jsonb) AS p(device_id bigint, company_id bigint)`;

const pairsParam = (refs: readonly DeviceRef[]) =>
  JSON.stringify(refs.map((r) => ({ device_id: r.deviceId, company_id: r.companyId })));

/** At most this many rules are kept (about 1 kB each); beyond it the oldest are dropped. */
const MAX_RULES = 200_000;

export interface RuleCacheOptions {
  /**
   * Lock the rule rows while reading their versions: needed on PostgreSQL, where the timer and other
   * workers write the same rows at the same time. `FOR NO KEY UPDATE`, the lock an UPDATE of the
   * states takes anyway: it excludes the timer (FOR UPDATE SKIP LOCKED), other workers and the console,
   * but not the key-share locks of rows that merely reference a rule (the notifier's notification_log,
   * alarms), so a notifier never waits for a batch, and a notifier inserting rows of several rules
   * cannot close a deadlock cycle with it. PGlite runs one transaction at a time on its one connection,
   * so there a lock only costs (a write to every row read).
   */
  lockRows: boolean;
}

export function createRuleCache(options: RuleCacheOptions = { lockRows: true }): RuleCache {
  const cache = new Map<number, Cached>();
  // What lock() read, per transaction (several batches may run at once on PostgreSQL), for save().
  const batches = new WeakMap<
    Queryable,
    {
      actionVersions: Map<number, string>;
      locked: Map<number, RulesWorkerRule>;
      lockedVersions: Map<number, string>;
    }
  >();
  let fullReads = 0;

  return {
    size: () => cache.size,
    fullReads: () => fullReads,
    async lock(tx, refs) {
      const actionVersions = new Map<number, string>();
      const locked = new Map<number, RulesWorkerRule>();
      const lockedVersions = new Map<number, string>();
      batches.set(tx, { actionVersions, locked, lockedVersions });
      if (refs.length === 0) return [];
      const { rows } = await tx.query<{ id: number; device_id: number; rule_v: string; actions_v: string }>(
        `SELECT r.id, r.device_id, r.xmin::text AS rule_v,
                COALESCE((SELECT string_agg(a.id::text || '.' || a.xmin::text, ',' ORDER BY a.id)
                            FROM rule_actions a WHERE a.rule_id = r.id AND a.company_id = r.company_id), '') AS actions_v
           FROM ${PAIRS}
           JOIN rules r ON r.device_id = p.device_id AND r.company_id = p.company_id
          WHERE r.is_active
          ORDER BY r.id
          ${options.lockRows ? 'FOR NO KEY UPDATE OF r' : ''}`,
        [pairsParam(refs)],
      );
      const refOf = new Map(refs.map((r) => [r.deviceId, r]));
      const stale = new Map<number, DeviceRef>();
      for (const row of rows) {
        const cached = cache.get(row.id);
        if (!cached || cached.version !== `${row.rule_v}/${row.actions_v}`) {
          const ref = refOf.get(row.device_id);
          if (ref) stale.set(ref.deviceId, ref);
        }
      }
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
        actionVersions.set(row.id, row.actions_v);
        lockedVersions.set(row.id, `${row.rule_v}/${row.actions_v}`);
        locked.set(row.id, rule);
        result.push(rule);
      }
      return result;
    },
    async save(tx, rows, kept = []) {
      const pending: PendingRules = { rows: new Map() };
      const batch = batches.get(tx);
      if (!batch) throw new Error('rule cache: save() without lock() in the same transaction');
      const { actionVersions, locked, lockedVersions } = batch;
      // Unwritten: the row in the database is unchanged, so its version stays; the state is the new one.
      for (const { id, state } of kept) {
        const row = locked.get(id);
        const version = lockedVersions.get(id);
        if (row && version !== undefined) pending.rows.set(id, { row: { ...row, state }, version });
      }
      if (rows.length === 0) return pending;
      // The new versions come back from the update itself (RETURNING xmin).
      const versions = await saveRuleStates(tx, rows);
      const stateOf = new Map(rows.map((r) => [r.id, r.state]));
      for (const { id, version: rule_v } of versions) {
        const row = locked.get(id);
        const actions = actionVersions.get(id);
        if (!row || actions === undefined) continue;
        pending.rows.set(id, {
          row: { ...row, state: stateOf.get(id) as Record<string, unknown> },
          version: `${rule_v}/${actions}`,
        });
      }
      return pending;
    },
    commit(pending) {
      for (const [id, entry] of pending.rows) {
        cache.delete(id);
        cache.set(id, entry);
      }
      // Map order is insertion order: the rules not written for longest go first.
      for (const id of cache.keys()) {
        if (cache.size <= MAX_RULES) break;
        cache.delete(id);
      }
    },
    forget() {
      cache.clear();
    },
  };
}
