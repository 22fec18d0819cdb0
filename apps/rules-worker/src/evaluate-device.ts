import type {
  DerivedDataRow,
  RulesWorkerAction,
  RulesWorkerDevice,
  RulesWorkerRule,
  RulesWorkerSensorCheck,
  RulesWorkerVirtualField,
  StateRow,
  saveRuleStates,
} from '@iot/db';
import { type EvaluateUplinksResult, evaluateUplinks, type RuleState, uplinkTime } from '@iot/rules-engine';
import type { Logger } from '@iot/runtime';
import { toEngineRule, toEngineSensorCheck, toEngineVirtualField } from './engine-inputs.js';
import {
  advanceCursor,
  engineState,
  isCommitted,
  type LogCursor,
  latestCursor,
  withCursor,
} from './log-cursor.js';
import type { DeviceOutcome } from './persist-outcomes.js';
import { measuredMs, type PositionedUplink } from './uplink-record.js';

/** What one uplink batch writes, gathered device by device (evaluateDevice). */
export interface BatchWrites {
  outcomes: DeviceOutcome[];
  ruleStates: Parameters<typeof saveRuleStates>[1][number][];
  /** With a rule cache: states of rules that only made progress, kept in memory (progressOnly). */
  unwrittenRules: { id: number; state: Record<string, unknown> }[];
  fieldStates: StateRow[];
  checkStates: StateRow[];
  derivedRows: { row: DerivedDataRow; partition: number; offset: bigint }[];
  /** Uplinks this worker committed before (a redelivered batch): their recorded jobs are read back. */
  replayedUplinks: { deviceId: number; companyId: number; messageId: string }[];
  evaluated: number;
}

export function emptyWrites(): BatchWrites {
  return {
    outcomes: [],
    ruleStates: [],
    unwrittenRules: [],
    fieldStates: [],
    checkStates: [],
    derivedRows: [],
    replayedUplinks: [],
    evaluated: 0,
  };
}

/** One device of a batch: its definitions with their locked states, and its uplinks in log order. */
export interface DeviceInputs {
  device: RulesWorkerDevice;
  rules: RulesWorkerRule[];
  fields: RulesWorkerVirtualField[];
  checks: RulesWorkerSensorCheck[];
  uplinks: readonly PositionedUplink[];
}

type EngineResult = EvaluateUplinksResult<RulesWorkerAction>;

/**
 * Skips what this worker committed before (log-cursor.ts), calls `evaluateUplinks` once for the rest and
 * adds the device's new states, stored virtual values and outcome to `writes`. `keepProgress` (with the
 * rule cache): a rule whose state only made progress is not written (progressOnly).
 */
export function evaluateDevice(
  input: DeviceInputs,
  writes: BatchWrites,
  options: { now: number; log: Logger; keepProgress: boolean },
): void {
  const { device, rules, fields, checks } = input;
  if (rules.length + fields.length + checks.length === 0) return;
  const cursor = latestCursor([...rules, ...fields, ...checks].map((r) => r.state));
  const fresh = freshUplinks(input, cursor, writes.replayedUplinks);
  if (fresh.length === 0) return;
  writes.evaluated += fresh.length;
  const ordered = inTimeOrder(fresh, options.now);

  // Each rule's state without the cursor, once (the engine's input and the comparison in ruleStates).
  const ruleStatesBefore = rules.map((r) => engineState<RuleState>(r.state) as Record<string, unknown>);
  const result = evaluateUplinks({
    device: { id: String(device.id), dataFields: device.dataFields },
    rules: rules.map(toEngineRule),
    virtualFields: fields.map(toEngineVirtualField),
    sensorChecks: checks.map(toEngineSensorCheck),
    states: {
      rules: Object.fromEntries(rules.map((r, i) => [String(r.id), ruleStatesBefore[i]! as RuleState])),
      virtualFields: Object.fromEntries(fields.map((f) => [String(f.id), engineState(f.state)])),
      sensorChecks: Object.fromEntries(checks.map((c) => [String(c.id), engineState(c.state)])),
    },
    uplinks: ordered.map((u) => ({
      receivedAt: u.uplink.receivedAt,
      // The same instant as the ISO text, parsed once (uplink-record.ts).
      measuredAt: measuredMs(u),
      data: u.uplink.data,
    })),
    timeZone: device.timeZone,
    now: options.now,
  });
  for (const problem of result.problems)
    options.log.warn({ deviceId: device.id, problem }, 'virtual data field refused by validation, left out');

  const next = advanceCursor(cursor, fresh);
  addStates(input, result, ruleStatesBefore, next, writes, options.keepProgress);
  addDerivedRows(device, result, ordered, writes.derivedRows);
  const outcome = outcomeOf(input, result, ordered, options.now);
  if (outcome) writes.outcomes.push(outcome);
}

/** The uplinks not committed before and not repeated within the batch (same time and id). */
function freshUplinks(
  { device, uplinks }: DeviceInputs,
  cursor: LogCursor | undefined,
  replayed: BatchWrites['replayedUplinks'],
): PositionedUplink[] {
  const fresh: PositionedUplink[] = [];
  const seen = new Set<string>();
  for (const u of uplinks) {
    const identity = `${measuredMs(u)}|${u.uplink.messageId}`;
    if (isCommitted(cursor, u))
      replayed.push({ deviceId: device.id, companyId: device.companyId, messageId: u.uplink.messageId });
    else if (!seen.has(identity)) fresh.push(u);
    seen.add(identity);
  }
  return fresh;
}

/** The device's new rule, field and check states, each carrying the log cursor `next`. */
function addStates(
  { rules, fields, checks }: DeviceInputs,
  result: EngineResult,
  ruleStatesBefore: readonly Record<string, unknown>[],
  next: LogCursor | undefined,
  writes: BatchWrites,
  keepProgress: boolean,
): void {
  const firedAt = new Map<string, number>();
  for (const f of result.firings) firedAt.set(f.ruleId, Math.max(f.at, firedAt.get(f.ruleId) ?? 0));
  // With the cache, a rule whose state only moved on (progressOnly) is kept in memory, not written;
  // the device's first rule is always written, so the log cursor is in the database.
  const carrier = rules[0]?.id;
  rules.forEach((r, i) => {
    const fired = firedAt.get(String(r.id));
    // The engine copies a state it steps (never changes the one it was given); withCursor makes the
    // object that is written or kept, so neither is changed here either.
    const before = ruleStatesBefore[i]!;
    const nextState = (result.newStates.rules[String(r.id)] ?? before) as Record<string, unknown>;
    if (keepProgress && r.id !== carrier && fired === undefined && progressOnly(r, before, nextState)) {
      writes.unwrittenRules.push({ id: r.id, state: withCursor(nextState, next) });
      return;
    }
    writes.ruleStates.push({
      id: r.id,
      company_id: r.companyId,
      state: withCursor(nextState, next),
      last_fired_at: fired === undefined ? null : new Date(fired).toISOString(),
    });
  });
  for (const f of fields)
    writes.fieldStates.push({
      id: f.id,
      company_id: f.companyId,
      state: withCursor(result.newStates.virtualFields[String(f.id)] ?? engineState(f.state), next),
    });
  for (const c of checks)
    writes.checkStates.push({
      id: c.id,
      company_id: c.companyId,
      state: withCursor(result.newStates.sensorChecks[String(c.id)] ?? engineState(c.state), next),
    });
}

/** Stored virtual values: only points that gained a key the uplink did not carry. */
function addDerivedRows(
  device: RulesWorkerDevice,
  result: EngineResult,
  ordered: readonly PositionedUplink[],
  derivedRows: BatchWrites['derivedRows'],
): void {
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
}

/** What to log and raise for the device; undefined when its uplinks decided nothing and none was late. */
function outcomeOf(
  { device, rules, checks }: DeviceInputs,
  result: EngineResult,
  ordered: readonly PositionedUplink[],
  now: number,
): DeviceOutcome | undefined {
  const late: DeviceOutcome['late'][number][] = [];
  result.derived.forEach((d, i) => {
    if (d.late) late.push({ uplinkIndex: i, measuredAt: uplinkTime(ordered[i]!.uplink, now), ...d.late });
  });
  if (result.firings.length + result.suppressed.length + result.alarms.length + late.length === 0)
    return undefined;
  return {
    device,
    rules: new Map(rules.map((r) => [String(r.id), r])),
    checks: new Map(checks.map((c) => [String(c.id), c])),
    firings: result.firings,
    suppressed: result.suppressed,
    alarms: result.alarms,
    late,
    messageIdOf: (index) => (index === null ? 'timer' : ordered[index]!.uplink.messageId),
  };
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
  const times = uplinks.map((u) =>
    uplinkTime({ receivedAt: u.uplink.receivedAt, measuredAt: measuredMs(u), data: u.uplink.data }, now),
  );
  let sorted = true;
  for (let i = 1; i < times.length && sorted; i++) sorted = times[i - 1]! <= times[i]!;
  if (sorted) return uplinks;
  return uplinks
    .map((u, i) => ({ u, at: times[i]! }))
    .sort((a, b) => a.at - b.at)
    .map(({ u }) => u);
}
