import type { NotifyActionPayload } from '@iot/contracts/jobs';
import {
  type Db,
  type DeviceRef,
  findRecordedJobs,
  findVirtualDevicesOfInputs,
  insertDeviceLogRows,
  loadRulesWorkerDevices,
  lockDeviceRules,
  lockDeviceSensorChecks,
  lockDeviceVirtualFields,
  lockRulesWorkerBatch,
  mergeVirtualFieldCurrent,
  type Queryable,
  type RulesWorkerDevice,
  type RulesWorkerRule,
  type RulesWorkerSensorCheck,
  type RulesWorkerVirtualField,
  saveRuleStates,
  saveSensorCheckStates,
  saveVirtualFieldStates,
  type Transaction,
  upsertDerivedData,
  upsertVirtualCurrent,
  type VirtualDevicesOfInputs,
} from '@iot/db';
import { claimJobKeys, NOTIFY_ACTION, preloadActions } from '@iot/jobs';
import { type Logger, metrics, secondsSince, stageHook } from '@iot/runtime';
import { type BatchWrites, emptyWrites, evaluateDevice } from './evaluate-device.js';
import { applyParkingUplinks, parkingUplinksOf } from './parking.js';
import { writeAlarms } from './persist-outcomes.js';
import type { PendingRules, RuleCache } from './rule-cache.js';
import type { PositionedUplink } from './uplink-record.js';
import { computeVirtualPoints } from './virtual-devices.js';

export interface UplinkBatchResult {
  /** Notify jobs of this batch's firings, to enqueue after the commit. */
  jobs: unknown[];
  /** Notify jobs this batch created (firings), not the ones read back for replayed uplinks. */
  firings: number;
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
  tx: Transaction,
  jobs: NotifyActionPayload[],
): Promise<{ jobs: NotifyActionPayload[]; claimed: Set<string> }> {
  if (jobs.length === 0) return { jobs, claimed: new Set() };
  // The keys are the jobs' own (idempotency keys name no preloaded row): both statements go together.
  const [preloaded, claimed] = await tx.pipeline([
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

  const parking = parkingUplinksOf(uplinks);

  const trace = stageHook();
  const ids = trace ? uplinks.map((u) => u.uplink.messageId) : [];
  const step = (stage: string) => trace?.(stage, ids);
  // High priority: on PGlite's one connection this batch, which may carry an alarm to its notification,
  // goes before the storage writer's bulk transactions waiting beside it (Db TransactionOptions).
  const started = performance.now();
  let evaluations = 0;
  let firings = 0;
  const result = await db.transaction(async (tx) => {
    evaluations = 0;
    step('rw: transaction started');
    const inputs = await readInputs(tx, refs, ruleCache);
    await addVirtualPoints(tx, inputs.virtual, uplinks, groups);
    const rules = byDevice(inputs.rules);
    const fields = byDevice(inputs.fields);
    const checks = byDevice(inputs.checks);
    step('rw: devices, rules, fields and checks read');

    const writes = emptyWrites();
    for (const device of inputs.devices) {
      const input = {
        device,
        rules: rules.get(device.id) ?? [],
        fields: fields.get(device.id) ?? [],
        checks: checks.get(device.id) ?? [],
        uplinks: groups.get(`${device.id}:${device.companyId}`) ?? [],
      };
      evaluateDevice(input, writes, { now, log, keepProgress: ruleCache !== undefined });
      evaluations += input.rules.length * input.uplinks.length;
    }
    const result = await writeBatch(tx, writes, {
      now,
      ruleCache,
      claimJobs: options.claimJobs ?? false,
      step,
    });
    const parkingJobs = await applyParkingUplinks(tx, parking, now);
    firings = result.firings;
    return parkingJobs.length > 0 ? { ...result, jobs: [...result.jobs, ...parkingJobs] } : result;
  }, HIGH_PRIORITY);
  metrics.ruleEvaluationSeconds.observe(secondsSince(started));
  metrics.ruleEvaluations.inc(evaluations);
  metrics.ruleFirings.inc(firings);
  return result;
}

const HIGH_PRIORITY = { priority: 'high' } as const;

/**
 * Points of virtual devices that read this batch's devices (virtual-devices.ts), read with the batch's
 * inputs: stored at once, and added to the batch as uplinks of the virtual devices so their rules are
 * evaluated with the rest (their rules, fields and checks were read with the batch's).
 */
async function addVirtualPoints(
  tx: Transaction,
  virtualDevices: VirtualDevicesOfInputs,
  uplinks: readonly PositionedUplink[],
  groups: Map<string, PositionedUplink[]>,
): Promise<void> {
  const virtual = computeVirtualPoints(virtualDevices, uplinks);
  if (virtual.uplinks.length === 0) return;
  await upsertDerivedData(tx, virtual.rows);
  await upsertVirtualCurrent(tx, virtual.current);
  for (const u of virtual.uplinks) {
    const key = `${u.uplink.deviceId}:${u.uplink.companyId}`;
    const list = groups.get(key);
    if (list) list.push(u);
    else groups.set(key, [u]);
  }
}

/**
 * The batch's writes, in this order, in three pipelined groups (`tx.pipeline`): on PGlite each group's
 * statements go to its worker without waiting for one another's replies (the worker runs them in the
 * order they arrive): PGlite holds its one connection for the whole transaction, and a round trip to
 * this thread, busy with the front door and the notifier, between two statements kept it idle
 * (tests/bench/README.md "Fewer round trips in the rules transaction"). On PostgreSQL one after another.
 */
async function writeBatch(
  tx: Transaction,
  writes: BatchWrites,
  options: { now: number; ruleCache?: RuleCache; claimJobs: boolean; step: (stage: string) => void },
): Promise<UplinkBatchResult> {
  const { ruleCache, step } = options;
  // In log order, the order the storage writer inserts the same rows in: two transactions taking the
  // same unique-index entries in one order cannot deadlock.
  writes.derivedRows.sort(
    (a, b) => a.partition - b.partition || (a.offset < b.offset ? -1 : a.offset > b.offset ? 1 : 0),
  );
  const writeStates = async () => {
    const [pending] = await tx.pipeline([
      async (): Promise<PendingRules | undefined> => {
        if (ruleCache) return ruleCache.save(tx, writes.ruleStates, writes.unwrittenRules);
        await saveRuleStates(tx, writes.ruleStates);
        return undefined;
      },
      () => saveVirtualFieldStates(tx, writes.fieldStates),
      () => saveSensorCheckStates(tx, writes.checkStates),
      () =>
        upsertDerivedData(
          tx,
          writes.derivedRows.map((d) => d.row),
        ),
      () =>
        mergeVirtualFieldCurrent(
          tx,
          writes.derivedRows.map((d) => d.row),
        ),
    ]);
    step('rw: states written');
    return pending;
  };
  const [pendingRules, { jobs: fresh, logs }] = await tx.pipeline([
    writeStates,
    () => writeAlarms(tx, writes.outcomes, options.now),
  ]);
  step('rw: alarms written');
  const [, handOver] = await tx.pipeline([
    () => insertDeviceLogRows(tx, logs),
    () =>
      options.claimJobs ? claimFreshJobs(tx, fresh) : Promise.resolve({ jobs: fresh, claimed: undefined }),
  ]);
  step('rw: device log written, jobs preloaded and claimed');
  const jobs: unknown[] = [...handOver.jobs, ...(await findRecordedJobs(tx, writes.replayedUplinks))];
  return {
    jobs,
    firings: fresh.length,
    evaluated: writes.evaluated,
    replayed: writes.replayedUplinks.length,
    ...(pendingRules ? { pendingRules } : {}),
    ...(handOver.claimed ? { claimed: handOver.claimed } : {}),
  };
}

/**
 * The batch's devices, their active rules, virtual fields and sensor checks, the state rows locked,
 * and the virtual devices reading the batch's devices, which count as devices of the batch.
 * With the rule cache one statement reads the devices, the rule versions, fields, checks and virtual
 * devices (at 1,000 uplinks/s on a busy process each round trip of the transaction waits for the event
 * loop, so four statements cost four such waits), then the cache reads in full only the rules whose
 * version changed. Without it (tests), the virtual devices first, then four statements.
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
  virtual: VirtualDevicesOfInputs;
}> {
  if (ruleCache) {
    const batch = await lockRulesWorkerBatch(tx, refs, { lockRuleRows: ruleCache.lockRows });
    const rules = await ruleCache.resolve(tx, withVirtual(refs, batch.virtual), batch.ruleVersions);
    return {
      devices: batch.devices,
      rules,
      fields: batch.fields,
      checks: batch.checks,
      virtual: batch.virtual,
    };
  }
  const virtual = await findVirtualDevicesOfInputs(tx, refs);
  const all = withVirtual(refs, virtual);
  const devices = await loadRulesWorkerDevices(tx, all);
  const rules = await lockDeviceRules(tx, all);
  const fields = await lockDeviceVirtualFields(tx, all);
  const checks = await lockDeviceSensorChecks(tx, all);
  return { devices, rules, fields, checks, virtual };
}

/** The batch's devices and the virtual devices reading them. */
function withVirtual(refs: readonly DeviceRef[], virtual: VirtualDevicesOfInputs): DeviceRef[] {
  const seen = new Set(refs.map((r) => `${r.deviceId}:${r.companyId}`));
  const extra = virtual.devices
    .filter((d) => !seen.has(`${d.id}:${d.companyId}`))
    .map((d) => ({ deviceId: d.id, companyId: d.companyId }));
  return extra.length === 0 ? [...refs] : [...refs, ...extra];
}
