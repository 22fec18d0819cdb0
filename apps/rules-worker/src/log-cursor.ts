/**
 * Replay detection. The engine evaluates every uplink it is given, an older one at a later time (rules
 * engine README, "Time"): a redelivered uplink would be evaluated again, which for a click rule is a
 * second firing and for `sum_up` a second count. So the worker remembers, in every state row of a device
 * (rules.state, virtual_data_fields.state, sensor_checks.state, key `_cursor`, written in the batch's
 * transaction), the log position of the last uplink it committed: partition, offset and the producer's
 * timestamp. A record at or before that position is one the worker already committed and is skipped.
 *
 * The timestamp guard keeps a log that restarted its offsets (the in-process log after a restart, a
 * recreated stream) from swallowing new uplinks: those were published later than anything committed.
 */
export interface LogCursor {
  /** Partition, offset and producer timestamp (ms) of the last committed record. */
  p: number;
  o: string;
  t: number;
  /** Latest measurement time (ms) committed, and the message ids committed at exactly that time. */
  a?: number;
  m?: string[];
}

/** A record's place in the log as the cursor functions read it (PositionedUplink). */
interface Position {
  partition: number;
  offset: string;
  timestamp: number;
  uplink: { measuredAt: string; messageId: string };
  /** measuredAt in epoch ms when already parsed (uplink-record.ts). */
  measuredAtMs?: number;
}

/** Bound on the ids kept for the latest time (a device sends few uplinks within one instant). */
const MAX_IDS = 50;

export const CURSOR_KEY = '_cursor';

export function readCursor(state: unknown): LogCursor | undefined {
  const c = (state as Record<string, unknown> | null)?.[CURSOR_KEY] as Partial<LogCursor> | undefined;
  if (!c || typeof c.p !== 'number' || typeof c.o !== 'string' || typeof c.t !== 'number') return undefined;
  if (!DIGITS.test(c.o)) return undefined;
  const cursor: LogCursor = { p: c.p, o: c.o, t: c.t };
  if (typeof c.a === 'number' && Array.isArray(c.m)) {
    cursor.a = c.a;
    cursor.m = c.m.filter((id): id is string => typeof id === 'string');
  }
  return cursor;
}

/** The latest cursor among a device's state rows (rows created since the last batch have none). */
export function latestCursor(states: readonly unknown[]): LogCursor | undefined {
  let latest: LogCursor | undefined;
  for (const state of states) {
    const c = readCursor(state);
    if (c && (!latest || c.t > latest.t || (c.t === latest.t && compareOffsets(c.o, latest.o) > 0)))
      latest = c;
  }
  return latest;
}

/**
 * Already committed: at or before the cursor's log position, or (a device or front door sending the
 * same uplink twice, published as two records) the same message id at the latest committed time.
 */
export function isCommitted(cursor: LogCursor | undefined, position: Position): boolean {
  if (!cursor) return false;
  if (cursor.a !== undefined && measuredAtOf(position) === cursor.a)
    if (cursor.m?.includes(position.uplink.messageId)) return true;
  if (cursor.p !== position.partition || !DIGITS.test(position.offset)) return false;
  return compareOffsets(position.offset, cursor.o) <= 0 && position.timestamp <= cursor.t;
}

const DIGITS = /^\d+$/;
/** Offsets this long are below 2^53 and compare exactly as numbers. */
const SAFE_OFFSET_DIGITS = 15;

/**
 * Sign of a - b for two offsets of digits only. As numbers while they are exact (every uplink of a
 * batch is compared with its device's cursor: no BigInt pair per uplink), else as BigInt.
 */
export function compareOffsets(a: string, b: string): number {
  if (a.length <= SAFE_OFFSET_DIGITS && b.length <= SAFE_OFFSET_DIGITS)
    return Math.sign(Number(a) - Number(b));
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function measuredAtOf(position: Position): number {
  return position.measuredAtMs ?? Date.parse(position.uplink.measuredAt);
}

/** The cursor after committing `uplinks` (in log order) on top of `previous`. */
export function advanceCursor(
  previous: LogCursor | undefined,
  uplinks: readonly Position[],
): LogCursor | undefined {
  const last = uplinks.at(-1);
  if (!last) return previous;
  let a = previous?.a;
  let m = previous?.m ?? [];
  for (const u of uplinks) {
    const at = measuredAtOf(u);
    if (a === undefined || at > a) {
      a = at;
      m = [u.uplink.messageId];
    } else if (at === a && !m.includes(u.uplink.messageId)) m = [...m, u.uplink.messageId].slice(-MAX_IDS);
  }
  return { p: last.partition, o: last.offset, t: last.timestamp, ...(a === undefined ? {} : { a, m }) };
}

/** The state without the worker's key, as the engine expects it. */
export function engineState<T>(state: unknown): T {
  if (typeof state !== 'object' || state === null) return {} as T;
  const { [CURSOR_KEY]: _cursor, ...rest } = state as Record<string, unknown>;
  return rest as T;
}

export function withCursor(state: unknown, cursor: LogCursor | undefined): Record<string, unknown> {
  const base = (typeof state === 'object' && state !== null ? state : {}) as Record<string, unknown>;
  return cursor ? { ...base, [CURSOR_KEY]: cursor } : { ...base };
}
