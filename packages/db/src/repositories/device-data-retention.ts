/**
 * Device data retention per company (issue #29, migration 0039): raw points older than the company's
 * retention are deleted device by device in batches, after the chart rollups of what is deleted have been
 * stored, so charts over the deleted time still read complete buckets; rollups older than the company's
 * rollup retention go too.
 */
import type { Db, Queryable, Transaction } from '../db';
import { SERIES_OF } from './device-data-buckets';
import { ROLLUP_BASE_SECONDS } from './device-data-rollups';
import { buildRollupsAhead } from './device-data-rollups-ahead';

const DAY_MS = 86_400_000;
const HOUR_MS = ROLLUP_BASE_SECONDS * 1000;
const ORIGIN_MS = Date.parse('2000-01-01T00:00:00Z');

/** The effective retention: the smaller of the company's setting and the client cap (either may be null). */
export function effectiveDataRetentionDays(own: number | null, cap: number | null): number | null {
  if (own === null) return cap;
  if (cap === null) return own;
  return Math.min(own, cap);
}

/** One device's points of one company that a purge looks at. */
interface RetentionTarget {
  companyId: number;
  deviceId: number;
  dataDays: number | null;
  rollupDays: number | null;
}

/**
 * Every device with points of a company that keeps its data for a limited time: the company's own devices
 * and those it has since handed to another company (their old points keep the company that recorded them).
 */
async function listRetentionTargets(q: Queryable): Promise<RetentionTarget[]> {
  const { rows } = await q.query<RetentionTarget>(
    `WITH c AS (
       SELECT id, CASE WHEN data_retention_days IS NULL THEN (limits->>'max_data_retention_days')::int
                       ELSE least(data_retention_days, (limits->>'max_data_retention_days')::int) END AS data_days,
              rollup_retention_days AS rollup_days
         FROM companies
        WHERE deleted_at IS NULL
          AND (data_retention_days IS NOT NULL OR rollup_retention_days IS NOT NULL
               OR limits ? 'max_data_retention_days'))
     SELECT c.id::int AS "companyId", d.device_id::int AS "deviceId", c.data_days AS "dataDays",
            c.rollup_days AS "rollupDays"
       FROM c
       JOIN (SELECT company_id, id AS device_id FROM devices
             UNION SELECT company_id, device_id FROM device_former_companies) d ON d.company_id = c.id
      ORDER BY 1, 2`,
  );
  return rows;
}

const hourStart = (t: number) => ORIGIN_MS + Math.floor((t - ORIGIN_MS) / HOUR_MS) * HOUR_MS;

/**
 * The end (exclusive, on an hour) of the next batch of `target`'s points before `cutoff`: about
 * `batchSize` points, whole hours only, so no hour is rolled up from half of its rows. Null: none left.
 */
async function nextBatchEnd(
  tx: Queryable,
  target: RetentionTarget,
  cutoff: number,
  batchSize: number,
): Promise<{ first: number; end: number } | null> {
  const { rows } = await tx.query<{ first: Date | null; nth: Date | null }>(
    `SELECT (SELECT min(created_at) FROM device_readings
              WHERE series = (SELECT s.id FROM ${SERIES_OF}) AND created_at < $3) AS first,
            (SELECT created_at FROM device_readings
              WHERE series = (SELECT s.id FROM ${SERIES_OF}) AND created_at < $3
              ORDER BY created_at OFFSET $4 LIMIT 1) AS nth`,
    [target.deviceId, target.companyId, new Date(cutoff), batchSize],
  );
  const first = rows[0]?.first;
  if (!first) return null;
  const nth = rows[0]?.nth;
  if (!nth) return { first: first.getTime(), end: cutoff };
  // An hour with more than batchSize points still goes whole.
  return {
    first: first.getTime(),
    end: Math.max(hourStart(nth.getTime()), hourStart(first.getTime()) + HOUR_MS),
  };
}

/**
 * Deletes one batch of `target`'s points before `cutoff` (an hour start at least 31 days back), having
 * stored the hours they fall in (the coarser chart widths are merged from the hours when read). Returns
 * the points deleted (0: none left).
 */
async function purgeDeviceBatch(
  tx: Transaction,
  target: RetentionTarget,
  cutoff: number,
  batchSize: number,
  now: Date,
): Promise<number> {
  const batch = await nextBatchEnd(tx, target, cutoff, batchSize);
  if (!batch) return 0;
  await buildRollupsAhead(
    tx,
    target.companyId,
    target.deviceId,
    [],
    { from: new Date(hourStart(batch.first)), to: new Date(batch.end) },
    { now },
  );
  // The invalidation triggers would delete the hours just stored (migrations 0039, 0043).
  await tx.query("SELECT set_config('iot.retention_delete', 'on', true)");
  const { rowCount } = await tx.query(
    `DELETE FROM device_readings WHERE series = (SELECT s.id FROM ${SERIES_OF}) AND created_at < $3`,
    [target.deviceId, target.companyId, new Date(batch.end)],
  );
  return rowCount;
}

async function hasPointsBefore(q: Queryable, target: RetentionTarget, cutoff: number): Promise<boolean> {
  const { rows } = await q.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM device_readings
                     WHERE series = (SELECT s.id FROM ${SERIES_OF}) AND created_at < $3) AS yes`,
    [target.deviceId, target.companyId, new Date(cutoff)],
  );
  return rows[0]?.yes === true;
}

/**
 * Deletes `target`'s stored hours that ended before `cutoff`. The probe reads the primary key's first
 * entry, so a pass with nothing to delete does not scan the device's rollups.
 */
async function purgeDeviceRollups(q: Queryable, target: RetentionTarget, cutoff: number): Promise<number> {
  const { rows } = await q.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM device_rollups
                     WHERE series = (SELECT s.id FROM ${SERIES_OF}) AND hour <= $3) AS yes`,
    [target.deviceId, target.companyId, new Date(cutoff - HOUR_MS)],
  );
  if (rows[0]?.yes !== true) return 0;
  const { rowCount } = await q.query(
    `DELETE FROM device_rollups WHERE series = (SELECT s.id FROM ${SERIES_OF}) AND hour <= $3`,
    [target.deviceId, target.companyId, new Date(cutoff - HOUR_MS)],
  );
  return rowCount;
}

export interface PurgeExpiredDeviceDataOptions {
  now: Date;
  /** Points per batch (default 5000); each batch is its own transaction. */
  batchSize?: number;
  /** Stop starting new batches after this long (ms; default 2000); the next pass goes on. */
  budgetMs?: number;
  /** The clock of the budget (tests). */
  clock?: () => number;
}

export interface PurgeExpiredDeviceDataResult {
  /** Raw points deleted. */
  points: number;
  /** Rollup buckets deleted (past the rollup retention). */
  rollups: number;
  /** False when the budget ran out before every device was done. */
  complete: boolean;
}

/**
 * Deletes, across companies (the platform's housekeeping), the raw points and rollups older than each
 * company's retention, device by device in batches until none is left or the time budget is used up.
 * A pass over devices with nothing old costs one index probe each (and a rollup delete with a rollup
 * retention). Several processes may run it: the
 * rollup builder's advisory lock per device (taken by buildRollupsAhead) serialises them per device.
 */
export async function purgeExpiredDeviceData(
  db: Db,
  options: PurgeExpiredDeviceDataOptions,
): Promise<PurgeExpiredDeviceDataResult> {
  const batchSize = options.batchSize ?? 5000;
  const clock = options.clock ?? Date.now;
  const deadline = clock() + (options.budgetMs ?? 2000);
  const now = options.now.getTime();
  const result = { points: 0, rollups: 0, complete: true };
  const targets = await listRetentionTargets(db);
  for (const [i, target] of targets.entries()) {
    if (i > 0 && clock() >= deadline) return { ...result, complete: false };
    if (target.dataDays === null) continue;
    const cutoff = hourStart(now - target.dataDays * DAY_MS);
    // Most passes find nothing old: one index probe, no transaction.
    for (let more = await hasPointsBefore(db, target, cutoff); more; ) {
      const n = await db.transaction((tx) => purgeDeviceBatch(tx, target, cutoff, batchSize, options.now));
      result.points += n;
      more = n > 0;
      if (more && clock() >= deadline) return { ...result, complete: false };
    }
    // Rollups go only after the raw points they summarise (the API keeps rollupDays >= dataDays): else a
    // chart would just rebuild them from the raw rows.
    if (target.rollupDays !== null && target.rollupDays >= target.dataDays) {
      result.rollups += await purgeDeviceRollups(db, target, hourStart(now - target.rollupDays * DAY_MS));
    }
  }
  return result;
}

/**
 * TimescaleDB only (untested here: no TimescaleDB on these machines): drops the chunks of device_readings
 * older than the longest retention of any company once every company keeps its data for a limited time.
 * purgeExpiredDeviceData has already deleted their points (storing their rollups first), so this only
 * gives back the space of emptied chunks at once. Returns the chunks dropped (0 without TimescaleDB).
 */
export async function dropExpiredDeviceDataChunks(q: Queryable, now: Date): Promise<number> {
  const { rows: hyper } = await q.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') AS yes`,
  );
  // Nested checks: the view below exists only with the extension.
  if (!hyper[0]?.yes) return 0;
  // The extension may have come after migration 0002, which left device_data (0043: device_readings) a
  // plain table then.
  const { rows: table } = await q.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM timescaledb_information.hypertables
                     WHERE hypertable_schema = current_schema() AND hypertable_name = 'device_readings') AS yes`,
  );
  if (!table[0]?.yes) return 0;
  // Deleted clients count too: they can be restored, with their data, until their purge.
  const { rows } = await q.query<{ days: number | null; unlimited: number }>(
    `SELECT max(least(coalesce(data_retention_days, 36500),
                      coalesce((limits->>'max_data_retention_days')::int, 36500)))::int AS days,
            count(*) FILTER (WHERE data_retention_days IS NULL AND NOT limits ? 'max_data_retention_days')::int
              AS unlimited
       FROM companies`,
  );
  const days = rows[0]?.days;
  if (!days || (rows[0]?.unlimited ?? 1) > 0) return 0;
  const { rows: dropped } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM drop_chunks('device_readings', older_than => $1::timestamptz) AS c`,
    [new Date(hourStart(now.getTime() - days * DAY_MS))],
  );
  return dropped[0]?.n ?? 0;
}
