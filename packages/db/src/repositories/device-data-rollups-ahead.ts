/**
 * The background rollup builder's statement: the closed hours of a range from the raw rows, and the
 * closed blocks of six hours from those hours, stored ahead of any chart read (device_rollups, migration
 * 0043; the other widths are merged from them when read).
 */
import type { Queryable } from '../db';
import { BUCKET_ORIGIN, type DataBucketRecord, type DataRange } from './device-data-buckets';
import {
  buildBlocks,
  buildRollups,
  MAX_BUILD_RUNS,
  ROLLUP_BASE_SECONDS,
  ROLLUP_BLOCK_HOURS,
  ROLLUP_CLOSED_AFTER_MS,
  ROLLUP_LOCK_CLASS,
} from './device-data-rollups';

export interface RollupsAheadResult {
  /** Hours read from the raw rows (missing hours, as runs). */
  rawHours: number;
  /** Hours stored in device_rollups (blocks of six hours not counted). */
  stored: number;
  /** With `wait: false`: another builder (or a late row's trigger) held the device's lock; nothing done. */
  busy?: true;
}

/**
 * Builds the closed hours of `range` not stored yet from the raw rows, ahead of any read (the background
 * rollup builder, the retention purge). An hour holds every field of the device's series, so `fields`
 * (the fields a caller charts) no longer narrows what is built; it is kept so callers need not change.
 * A range already built costs two small queries, which keeps repeated passes over built history cheap.
 *
 * `tx` must be a transaction (see readDeviceDataBucketsRolledUp); the builder's advisory lock is taken
 * before anything is checked, so two builders of one device run one after the other and the second finds
 * everything stored; with `wait: false` the second returns at once with `busy` instead.
 */
export async function buildRollupsAhead(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  _fields: readonly string[],
  range: DataRange,
  options: { now?: Date; wait?: boolean } = {},
): Promise<RollupsAheadResult> {
  const now = options.now ?? new Date();
  const widthMs = ROLLUP_BASE_SECONDS * 1000;
  const origin = Date.parse(BUCKET_ORIGIN);
  const binStart = (t: number) => origin + Math.floor((t - origin) / widthMs) * widthMs;
  const fromBin = binStart(range.from.getTime());
  const from = fromBin === range.from.getTime() ? fromBin : fromBin + widthMs;
  const to = Math.min(binStart(range.to.getTime()), binStart(now.getTime() - ROLLUP_CLOSED_AFTER_MS));
  if (to <= from) return { rawHours: 0, stored: 0 };
  if (options.wait === false) {
    // A background builder does not queue behind another one (an API replica's builder would hold a pooled
    // connection while waiting): it leaves the device to whoever holds the lock and moves on.
    const { rows: lock } = await tx.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1, $2) AS locked',
      [ROLLUP_LOCK_CLASS, deviceId % 2147483647],
    );
    if (!lock[0]?.locked) return { rawHours: 0, stored: 0, busy: true };
  } else {
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [ROLLUP_LOCK_CLASS, deviceId % 2147483647]);
  }
  const { rows: present } = await tx.query<{ t: number }>(
    `SELECT (extract(epoch FROM h.hour) * 1000)::float8 AS t
       FROM device_series s JOIN device_rollups h ON h.series = s.id
      WHERE s.device_id = $1 AND s.company_id = $2 AND h.hours = 1 AND h.hour >= $3 AND h.hour < $4`,
    [deviceId, companyId, new Date(from), new Date(to)],
  );
  const known = new Set(present.map((row) => Number(row.t)));
  const runs: DataRange[] = [];
  let rawHours = 0;
  for (let start = from; start < to; start += widthMs) {
    if (known.has(start)) continue;
    rawHours += 1;
    const last = runs.at(-1);
    if (last && last.to.getTime() === start) last.to = new Date(start + widthMs);
    else runs.push({ from: new Date(start), to: new Date(start + widthMs) });
  }
  const spans = runs.length > MAX_BUILD_RUNS ? [{ from: runs[0]!.from, to: runs.at(-1)!.to }] : runs;
  const stored =
    spans.length === 0
      ? 0
      : await buildRollups(tx, companyId, deviceId, spans, new Map<number, DataBucketRecord>(), known);
  await buildBlocksAhead(tx, companyId, deviceId, from, to);
  return { rawHours, stored };
}

/** The whole blocks of six hours in [from, to) not stored yet, merged from their (stored) hours. */
async function buildBlocksAhead(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  from: number,
  to: number,
) {
  const blockMs = ROLLUP_BLOCK_HOURS * ROLLUP_BASE_SECONDS * 1000;
  const origin = Date.parse(BUCKET_ORIGIN);
  const first = origin + Math.ceil((from - origin) / blockMs) * blockMs;
  const end = origin + Math.floor((to - origin) / blockMs) * blockMs;
  if (end <= first) return;
  const { rows } = await tx.query<{ t: number }>(
    `SELECT (extract(epoch FROM h.hour) * 1000)::float8 AS t
       FROM device_series s JOIN device_rollups h ON h.series = s.id
      WHERE s.device_id = $1 AND s.company_id = $2 AND h.hours = $5 AND h.hour >= $3 AND h.hour < $4`,
    [deviceId, companyId, new Date(first), new Date(end), ROLLUP_BLOCK_HOURS],
  );
  if (rows.length === (end - first) / blockMs) return;
  const span = { from: new Date(first), to: new Date(end) };
  await buildBlocks(tx, companyId, deviceId, span, new Set(rows.map((row) => Number(row.t))));
}
