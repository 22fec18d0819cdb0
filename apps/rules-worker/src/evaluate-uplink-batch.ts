import type { NotifyActionPayload } from '@iot/contracts';
import {
  type Db,
  type DerivedDataRow,
  type DeviceRef,
  findRecordedJobs,
  insertDeviceLogRows,
  loadRulesWorkerDevices,
  lockDeviceRules,
  lockDeviceSensorChecks,
  lockDeviceVirtualFields,
  lockRulesWorkerBatch,
  type Queryable,
  type RulesWorkerDevice,
  type RulesWorkerRule,
  type RulesWorkerSensorCheck,
  type RulesWorkerVirtualField,
  saveRuleStates,
  saveSensorCheckStates,
  saveVirtualFieldStates,
  upsertDerivedData,
} from '@iot/db';
import { claimJobKeys, NOTIFY_ACTION, preloadActions } from '@iot/jobs';
import { evaluateUplinks, type RuleState, uplinkTime } from '@iot/rules-engine';
import { type Logger, stageHook } from '@iot/runtime';
import { toEngineRule, toEngineSensorCheck, toEngineVirtualField } from './engine-inputs.js';
import { advanceCursor, engineState, isCommitted, latestCursor, withCursor } from './log-cursor.js';
import { type DeviceOutcome, writeAlarms } from './persist-outcomes.js';
import type { PendingRules, RuleCache } from './rule-cache.js';
import type { PositionedUplink } from './uplink-record.js';

export interface UplinkBatchResult {
  /** Notify jobs of this batch's firings, to enqueue after the commit. */
  jobs: unknown[];
  /** Uplinks evaluated / skipped as already committed (a redelivered batch). */
  evaluated: number;
  replayed: number;
  /** With a rule cache: the rules written, for `cache.commit` once the transaction committed. */
  pendingRules?: PendingRules;
  /** With `claimJobs`: the keys of `jobs` this transaction claimed (enqueue them with `claimed`). */
  claimed?: ReadonlySet<string>;
}

/**
 * For a queue that runs notify jobs in this process: inside the firing's transaction, read what each
 * new job's first run would load (`preloaded`) and claim its key (job_keys), so after the commit the
 * job starts without a database round trip before its send. Two statements per transaction with
 * firings, none without. Jobs of redelivered uplinks are neither (their keys exist already).
 */
async function claimFreshJobs(
  tx: Parameters<typeof preloadActions>[0],
  jobs: NotifyActionPayload[],
  pipelined: boolean,
): Promise<{ jobs: NotifyActionPayload[]; claimed: Set<string> }> {
  if (jobs.length === 0) return { jobs, claimed: new Set() };
  // The keys are the jobs' own (idempotency keys name no preloaded row): both statements go together.
  const [preloaded, claimed] = await inOrder(pipelined, [
    () => preloadActions(tx, jobs),
    () =>
      claimJobKeys(
        tx,
        jobs.map((job) => ({ key: NOTIFY_ACTION.idempotencyKey(job), jobName: NOTIFY_ACTION.name })),
      ),
  ] as const);
  const withRows = jobs.map((job, i) => {
    const rows = preloaded[i];
    return rows ? { ...job, preloaded: rows } : job;
  });
  return { jobs: withRows, claimed };
}

/**
 * Runs `steps` in their order and resolves with their results. Pipelined (PGlite), each step starts at
 * once, so the statements it sends follow the previous step's without waiting for their replies; the
 * first failure rejects (the statements after it fail on the aborted transaction, and are waited for so
 * that none rejects unheard). Else each step starts after the previous one ended.
 */
async function inOrder<const T extends readonly (() => Promise<unknown>)[]>(
  pipelined: boolean,
  steps: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  type Results = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };
  if (!pipelined) {
    const results: unknown[] = [];
    for (const step of steps) results.push(await step());
    return results as Results;
  }
  const settled = await Promise.allSettled(steps.map((step) => step()));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as Results;
}

function groupByDevice(uplinks: readonly PositionedUplink[]): Map<string, PositionedUplink[]> {
  const groups = new Map<string, PositionedUplink[]>();
  for (const u of uplinks) {
    // Device and company together: an envelope naming a device with another company finds nothing.
    const key = `${u.uplink.deviceId}:${u.uplink.companyId}`;
    const list = groups.get(key);
    if (list) list.push(u);
    else groups.set(key, [u]);
  }
  return groups;
}

function byDevice<T extends { deviceId: number }>(rows: readonly T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.deviceId);
    if (list) list.push(row);
    else map.set(row.deviceId, [row]);
  }
  return map;
}

/** What a rule's state may change without being written (with the rule cache): its progress. */
const PROGRESS_KEYS = new Set(['lastAt']);
/** Level operators compare each value on its own; only the edges (rie, fae) need the previous one. */
const LEVEL_PROGRESS_KEYS = new Set(['lastAt', 'lastValue']);

/**
 * True when a data rule's new state differs from the old only in its progress (the time and, for a level
 * operator, the value of the last uplink): no edge, window, episode, alarm, click or max-actions budget
 * changed. Such a state is kept in memory (rule-cache.ts) and not written, which spares the batch most
 * of its row updates (ten rules per device, nearly all of which hold nothing). What a restart loses is
 * only that progress: the device's log cursor is always written (the device's first rule carries it),
 * so no committed uplink is evaluated again; the one thing that becomes weaker after a crash is the
 * out-of-order guard of those rules for an uplink older than one they saw. No-data and click rules
 * use their last time, edge operators their last value: theirs is always written.
 */
export function progressOnly(
  rule: RulesWorkerRule,
  previous: Record<string, unknown>,
  next: Record<string, unknown>,
): boolean {
  if (rule.trigger !== 'data') return false;
  const progress = rule.operator === 'rie' || rule.operator === 'fae' ? PROGRESS_KEYS : LEVEL_PROGRESS_KEYS;
  // Keys of both sides, each compared once (ten rules per device on every uplink: no Set, no
  // stringifying of primitives).
  for (const key in next) if (!progress.has(key) && !sameValue(previous[key], next[key])) return false;
  for (const key in previous)
    if (!(key in next) && !progress.has(key) && !sameValue(previous[key], undefined)) return false;
  return true;
}

/** Equal as JSON; a primitive compares by identity (NaN against NaN or null counts as a change). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * One log batch, one transaction: loads the batch's devices with their active rules (and action ids),
 * virtual fields and sensor checks, locking the state rows (readInputs: one statement with the rule cache,
 * four without), skips
 * uplinks this worker already committed (log-cursor.ts), calls `evaluateUplinks` once per device, and
 * writes states, stored virtual values, alarms and device log entries. Returns the notify jobs; for
 * skipped uplinks these are the jobs recorded with their firings, so a batch redelivered after a crash
 * between commit and enqueue still hands every job over (the queue's idempotency key drops repeats).
 */
export async function evaluateUplinkBatch(options: {
  db: Db;
  uplinks: readonly PositionedUplink[];
  now: number;
  log: Logger;
  /** Rules and states kept between batches (rule-cache.ts); without it every batch reads them. */
  ruleCache?: RuleCache;
  /** Preload and claim the new jobs in the transaction (claimFreshJobs): the queue runs them here. */
  claimJobs?: boolean;
}): Promise<UplinkBatchResult> {
  const { db, uplinks, now, log, ruleCache } = options;
  const groups = groupByDevice(uplinks);
  const refs: DeviceRef[] = [...groups.values()].map((list) => ({
    deviceId: list[0]!.uplink.deviceId,
    companyId: list[0]!.uplink.companyId,
  }));

  const trace = stageHook();
  const ids = trace ? uplinks.map((u) => u.uplink.messageId) : [];
  // High priority: on PGlite's one connection this batch, which may carry an alarm to its notification,
  // goes before the storage writer's bulk transactions waiting beside it (Db TransactionOptions).
  return db.transaction(async (tx) => {
    trace?.('rw: transaction started', ids);
    const inputs = await readInputs(tx, refs, ruleCache);
    const { devices } = inputs;
    const rules = byDevice(inputs.rules);
    const fields = byDevice(inputs.fields);
    const checks = byDevice(inputs.checks);
    trace?.('rw: devices, rules, fields and checks read', ids);

    const outcomes: DeviceOutcome[] = [];
    const ruleStates: Parameters<typeof saveRuleStates>[1][number][] = [];
    const unwrittenRules: { id: number; state: Record<string, unknown> }[] = [];
    const fieldStates: Parameters<typeof saveVirtualFieldStates>[1][number][] = [];
    const checkStates: Parameters<typeof saveSensorCheckStates>[1][number][] = [];
    const derivedRows: { row: DerivedDataRow; partition: number; offset: bigint }[] = [];
    const replayedUplinks: { deviceId: number; companyId: number; messageId: string }[] = [];
    let evaluated = 0;

    for (const device of devices) {
      const deviceRules: RulesWorkerRule[] = rules.get(device.id) ?? [];
      const deviceFields: RulesWorkerVirtualField[] = fields.get(device.id) ?? [];
      const deviceChecks: RulesWorkerSensorCheck[] = checks.get(device.id) ?? [];
      if (deviceRules.length + deviceFields.length + deviceChecks.length === 0) continue;
      const list = groups.get(`${device.id}:${device.companyId}`) ?? [];
      const cursor = latestCursor([...deviceRules, ...deviceFields, ...deviceChecks].map((r) => r.state));
      // Skip what was committed before, and an uplink repeated within the batch (same time and id).
      const fresh: PositionedUplink[] = [];
      const seen = new Set<string>();
      for (const u of list) {
        const identity = `${Date.parse(u.uplink.measuredAt)}|${u.uplink.messageId}`;
        if (isCommitted(cursor, u))
          replayedUplinks.push({
            deviceId: device.id,
            companyId: device.companyId,
            messageId: u.uplink.messageId,
          });
        else if (!seen.has(identity)) fresh.push(u);
        seen.add(identity);
      }
      if (fresh.length === 0) continue;
      evaluated += fresh.length;
      const ordered = inTimeOrder(fresh, now);

      // Each rule's state without the cursor, once (the engine's input and the comparison below).
      const ruleStatesBefore = deviceRules.map((r) => engineState<RuleState>(r.state));
      const result = evaluateUplinks({
        device: { id: String(device.id), dataFields: device.dataFields },
        rules: deviceRules.map(toEngineRule),
        virtualFields: deviceFields.map(toEngineVirtualField),
        sensorChecks: deviceChecks.map(toEngineSensorCheck),
        states: {
          rules: Object.fromEntries(deviceRules.map((r, i) => [String(r.id), ruleStatesBefore[i]!])),
          virtualFields: Object.fromEntries(deviceFields.map((f) => [String(f.id), engineState(f.state)])),
          sensorChecks: Object.fromEntries(deviceChecks.map((c) => [String(c.id), engineState(c.state)])),
        },
        uplinks: ordered.map((u) => ({
          receivedAt: u.uplink.receivedAt,
          measuredAt: u.uplink.measuredAt,
          data: u.uplink.data,
        })),
        timeZone: device.timeZone,
        now,
      });
      for (const problem of result.problems)
        log.warn({ deviceId: device.id, problem }, 'virtual data field refused by validation, left out');

      const next = advanceCursor(cursor, fresh);
      const firedAt = new Map<string, number>();
      for (const f of result.firings) firedAt.set(f.ruleId, Math.max(f.at, firedAt.get(f.ruleId) ?? 0));
      // With the cache, a rule whose state only moved on (progressOnly) is kept in memory, not written;
      // the device's first rule is always written, so the log cursor is in the database.
      const carrier = deviceRules[0]?.id;
      deviceRules.forEach((r, i) => {
        const fired = firedAt.get(String(r.id));
        // The engine copies a state it steps (never changes the one it was given); withCursor makes the
        // object that is written or kept, so neither is changed here either.
        const before = ruleStatesBefore[i] as Record<string, unknown>;
        const nextState = (result.newStates.rules[String(r.id)] ?? before) as Record<string, unknown>;
        if (ruleCache && r.id !== carrier && fired === undefined && progressOnly(r, before, nextState)) {
          unwrittenRules.push({ id: r.id, state: withCursor(nextState, next) });
          return;
        }
        ruleStates.push({
          id: r.id,
          company_id: r.companyId,
          state: withCursor(nextState, next),
          last_fired_at: fired === undefined ? null : new Date(fired).toISOString(),
        });
      });
      for (const f of deviceFields)
        fieldStates.push({
          id: f.id,
          company_id: f.companyId,
          state: withCursor(result.newStates.virtualFields[String(f.id)] ?? engineState(f.state), next),
        });
      for (const c of deviceChecks)
        checkStates.push({
          id: c.id,
          company_id: c.companyId,
          state: withCursor(result.newStates.sensorChecks[String(c.id)] ?? engineState(c.state), next),
        });

      // Stored virtual values: only points that gained a key the uplink did not carry.
      result.derived.forEach((derived, i) => {
        const u = ordered[i]!.uplink;
        if (!Object.keys(derived.data).some((key) => !(key in u.data))) return;
        derivedRows.push({
          row: {
            device_id: device.id,
            company_id: device.companyId,
            created_at: new Date(u.measuredAt).toISOString(),
            message_id: u.messageId,
            data: derived.data,
            latitude: u.geo?.latitude ?? null,
            longitude: u.geo?.longitude ?? null,
            fcnt: u.fcnt ?? null,
          },
          partition: ordered[i]!.partition,
          offset: /^\d+$/.test(ordered[i]!.offset) ? BigInt(ordered[i]!.offset) : 0n,
        });
      });

      const late: DeviceOutcome['late'][number][] = [];
      result.derived.forEach((d, i) => {
        if (d.late) late.push({ uplinkIndex: i, measuredAt: uplinkTime(ordered[i]!.uplink, now), ...d.late });
      });
      // A device whose uplinks fired, suppressed, raised or cleared nothing, none late, has nothing to log.
      if (result.firings.length + result.suppressed.length + result.alarms.length + late.length === 0)
        continue;
      outcomes.push({
        device,
        rules: new Map(deviceRules.map((r) => [String(r.id), r])),
        checks: new Map(deviceChecks.map((c) => [String(c.id), c])),
        firings: result.firings,
        suppressed: result.suppressed,
        alarms: result.alarms,
        late,
        messageIdOf: (index) => (index === null ? 'timer' : ordered[index]!.uplink.messageId),
      });
    }

    // In log order, the order the storage writer inserts the same rows in: two transactions taking the
    // same unique-index entries in one order cannot deadlock.
    derivedRows.sort(
      (a, b) => a.partition - b.partition || (a.offset < b.offset ? -1 : a.offset > b.offset ? 1 : 0),
    );
    // The writes, in this order. On PGlite they go to its worker in groups, each group's statements sent
    // without waiting for one another's replies (the worker runs them in the order they arrive): PGlite
    // holds its one connection for the whole transaction, and a round trip to this thread, busy with the
    // front door and the notifier, between two statements kept it idle (tests/bench/README.md "Fewer
    // round trips in the rules transaction"). On PostgreSQL one after another, as node-postgres needs.
    const pipelined = db.kind === 'pglite';
    const writeStates = async () => {
      const [pending] = await inOrder(pipelined, [
        async (): Promise<PendingRules | undefined> => {
          if (ruleCache) return ruleCache.save(tx, ruleStates, unwrittenRules);
          await saveRuleStates(tx, ruleStates);
          return undefined;
        },
        () => saveVirtualFieldStates(tx, fieldStates),
        () => saveSensorCheckStates(tx, checkStates),
        () =>
          upsertDerivedData(
            tx,
            derivedRows.map((d) => d.row),
          ),
      ] as const);
      return pending;
    };
    const [pendingRules, { jobs: fresh, logs }] = await inOrder(pipelined, [
      async () => {
        const pending = await writeStates();
        trace?.('rw: states written', ids);
        return pending;
      },
      () => writeAlarms(tx, outcomes, now, { pipelined }),
    ] as const);
    trace?.('rw: alarms written', ids);
    const [, handOver] = await inOrder(pipelined, [
      () => insertDeviceLogRows(tx, logs),
      () =>
        options.claimJobs
          ? claimFreshJobs(tx, fresh, pipelined)
          : Promise.resolve({ jobs: fresh, claimed: undefined }),
    ] as const);
    trace?.('rw: device log written, jobs preloaded and claimed', ids);
    const jobs: unknown[] = [...handOver.jobs, ...(await findRecordedJobs(tx, replayedUplinks))];
    return {
      jobs,
      evaluated,
      replayed: replayedUplinks.length,
      ...(pendingRules ? { pendingRules } : {}),
      ...(handOver.claimed ? { claimed: handOver.claimed } : {}),
    };
  }, HIGH_PRIORITY);
}

const HIGH_PRIORITY = { priority: 'high' } as const;

/**
 * The batch's devices, their active rules, virtual fields and sensor checks, the state rows locked.
 * With the rule cache one statement reads the devices, the rule versions, fields and checks (at 1,000
 * uplinks/s on a busy process each round trip of the transaction waits for the event loop, so four
 * statements cost four such waits), then the cache reads in full only the rules whose version changed.
 */
async function readInputs(
  tx: Queryable,
  refs: readonly DeviceRef[],
  ruleCache: RuleCache | undefined,
): Promise<{
  devices: RulesWorkerDevice[];
  rules: RulesWorkerRule[];
  fields: RulesWorkerVirtualField[];
  checks: RulesWorkerSensorCheck[];
}> {
  if (ruleCache) {
    const batch = await lockRulesWorkerBatch(tx, refs, { lockRuleRows: ruleCache.lockRows });
    const rules = await ruleCache.resolve(tx, refs, batch.ruleVersions);
    return { devices: batch.devices, rules, fields: batch.fields, checks: batch.checks };
  }
  const devices = await loadRulesWorkerDevices(tx, refs);
  const rules = await lockDeviceRules(tx, refs);
  const fields = await lockDeviceVirtualFields(tx, refs);
  const checks = await lockDeviceSensorChecks(tx, refs);
  return { devices, rules, fields, checks };
}

/**
 * A device's uplinks of one batch in the engine's time order (stable: equal times keep log order). The
 * log keeps a device's records in the order they were appended, but in the distributed profile several
 * ingest processes share the broker's subscription, so two uplinks of a device can be appended in the
 * opposite order to their publishing when one process lags. Evaluated in log order, the older one would
 * be late (evaluated after the newer one, at the newer one's time); in time order each is evaluated when
 * it happened. Across batches the engine evaluates an older uplink at a later time (rules engine README,
 * "Time"). The log cursor keeps using log order.
 */
function inTimeOrder(uplinks: PositionedUplink[], now: number): PositionedUplink[] {
  // The common batch has one uplink per device: nothing to parse or order.
  if (uplinks.length < 2) return uplinks;
  const times = uplinks.map((u) => uplinkTime(u.uplink, now));
  let sorted = true;
  for (let i = 1; i < times.length && sorted; i++) sorted = times[i - 1]! <= times[i]!;
  if (sorted) return uplinks;
  return uplinks
    .map((u, i) => ({ u, at: times[i]! }))
    .sort((a, b) => a.at - b.at)
    .map(({ u }) => u);
}
