/**
 * Chart buckets of an hour and more from the hourly rollups (device_rollups, migration 0041): closed
 * hours are read from the rollups, and computed from the raw rows and stored on first read
 * (read-through); every coarser width is merged from its hours.
 */
import type { Queryable } from '../db';
import {
  BUCKET_ORIGIN,
  binStartOf,
  type DataBucketRecord,
  type DataRange,
  type FieldStats,
  readDeviceDataBuckets,
  SERIES_OF,
  stats,
} from './device-data-buckets';

/** The stored width; every chart width below is a whole number of it on the same origin. */
export const ROLLUP_BASE_SECONDS = 3600;
const HOUR_MS = ROLLUP_BASE_SECONDS * 1000;

/** Chart widths served from the hourly rollups. */
export const ROLLUP_BUCKET_SECONDS: readonly number[] = [
  3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000,
];

/**
 * A bucket is rolled up once it ended this long ago. Migration 0041's triggers invalidate rolled-up buckets
 * for any row older than 15 minutes, so this must stay well above that: the margin covers writer batches in
 * flight and clock differences between the API and the database.
 */
export const ROLLUP_CLOSED_AFTER_MS = 30 * 60_000;

/** Advisory lock class shared with migration 0041's trigger functions ('roll'). */
export const ROLLUP_LOCK_CLASS = 1919904876;
/** A field named '' is never rolled up (the API reads it raw), as before migration 0041. */
export const ROW_COUNT_FIELD = '';
/** Separate raw reads of missing buckets at most; more runs are read as one span. */
export const MAX_BUILD_RUNS = 4;

export function canRollUp(bucketSeconds: number, fields: readonly string[]): boolean {
  return ROLLUP_BUCKET_SECONDS.includes(bucketSeconds) && !fields.includes(ROW_COUNT_FIELD);
}

/** A stored hour (device_rollups, migration 0041): row count, [min, max, sum] per position, counts. */
interface StoredHour {
  rows: number;
  stats: (number | string | null)[] | null;
  counts: number[] | null;
}

/** JSON from float8: numbers, null, or the strings "Infinity" / "-Infinity" / "NaN" for non-finite sums. */
function jsonNumber(value: number | string | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** One field's statistics in a stored hour, by its position in the series' fields (-1: never reported). */
function hourStats(hour: StoredHour, position: number): FieldStats {
  const min = position < 0 ? null : jsonNumber(hour.stats?.[3 * position]);
  const count = position < 0 ? 0 : (hour.counts?.[position] ?? (min === null ? 0 : hour.rows));
  return stats(
    min,
    jsonNumber(hour.stats?.[3 * position + 1]),
    jsonNumber(hour.stats?.[3 * position + 2]),
    count,
  );
}

/** The device's series fields and its stored hours in `span` (epoch ms of each hour start). */
async function readStoredHours(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  span: DataRange,
): Promise<{ fields: string[]; hours: Map<number, StoredHour> }> {
  // One JSON text for all hours: a year is 8,760 rows, and decoding that many result rows costs PGlite
  // several times what JSON.parse of one text costs.
  const { rows } = await tx.query<{ fields: string[]; hours: string | null }>(
    `SELECT s.fields,
            (SELECT json_agg(json_build_array((extract(epoch FROM h.hour) * 1000)::bigint, h.rows, h.stats, h.counts)
                             ORDER BY h.hour)::text
               FROM device_rollups h WHERE h.series = s.id AND h.hour >= $3 AND h.hour < $4) AS hours
       FROM ${SERIES_OF}`,
    [deviceId, companyId, span.from, span.to],
  );
  const hours = new Map<number, StoredHour>();
  const list = JSON.parse(rows[0]?.hours ?? '[]') as [number, number, StoredHour['stats'], number[] | null][];
  for (const [start, count, s, counts] of list) hours.set(start, { rows: count, stats: s, counts });
  return { fields: rows[0]?.fields ?? [], hours };
}

/**
 * The closed hours of `span` for `fields`: stored ones from device_rollups, missing ones computed from
 * the raw rows once and stored (read-through), as runs of consecutive hours.
 */
async function readHours(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  fields: readonly string[],
  span: DataRange,
): Promise<Map<number, DataBucketRecord>> {
  const { fields: known, hours } = await readStoredHours(tx, companyId, deviceId, span);
  const result = new Map<number, DataBucketRecord>();
  const runs: DataRange[] = [];
  for (let start = span.from.getTime(); start < span.to.getTime(); start += HOUR_MS) {
    const hour = hours.get(start);
    if (hour) {
      const byField = fields.map((f): [string, FieldStats] => [f, hourStats(hour, known.indexOf(f))]);
      result.set(start, { start: new Date(start), count: hour.rows, fields: Object.fromEntries(byField) });
      continue;
    }
    const last = runs.at(-1);
    if (last && last.to.getTime() === start) last.to = new Date(start + HOUR_MS);
    else runs.push({ from: new Date(start), to: new Date(start + HOUR_MS) });
  }
  // Beyond a few runs one read over the whole span is cheaper than many round trips.
  const spans = runs.length > MAX_BUILD_RUNS ? [{ from: runs[0]!.from, to: runs.at(-1)!.to }] : runs;
  if (spans.length > 0) {
    const built = new Map<number, DataBucketRecord>();
    await buildRollups(tx, companyId, deviceId, spans, built, new Set(hours.keys()));
    for (const [start, bucket] of built) {
      if (hours.has(start)) continue;
      const byField = fields.map((f): [string, FieldStats] => [
        f,
        bucket.fields[f] ?? stats(null, null, null, 0),
      ]);
      result.set(start, { start: bucket.start, count: bucket.count, fields: Object.fromEntries(byField) });
    }
  }
  return result;
}

/**
 * The same buckets as readDeviceDataBuckets, from the stored hours where they are closed (ended
 * ROLLUP_CLOSED_AFTER_MS before `now`) and lie wholly inside the range: a coarse bucket is the merge of
 * its hours (minimum of the minimums, maximum of the maximums, sums of the sums and counts). The partial
 * buckets at the range's edges and the buckets still open come from the raw rows. Closed hours not
 * stored yet (first read, or invalidated by late data) are computed from the raw rows once and stored.
 *
 * `tx` must be a transaction: the advisory lock that keeps a concurrent late row from being missed by
 * what this stores lasts until it commits (see migration 0041).
 */
export async function readDeviceDataBucketsRolledUp(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
  fields: readonly string[],
  bucketSeconds: number,
  now: Date = new Date(),
): Promise<DataBucketRecord[]> {
  if (!canRollUp(bucketSeconds, fields)) {
    return readDeviceDataBuckets(tx, companyId, deviceId, range, fields, bucketSeconds);
  }
  const widthMs = bucketSeconds * 1000;
  const binStart = (t: number) => binStartOf(t, bucketSeconds);
  const from = range.from.getTime();
  const to = range.to.getTime();
  const firstFull = binStart(from) === from ? from : binStart(from) + widthMs;
  const closedEnd = Math.min(binStart(to), binStart(now.getTime() - ROLLUP_CLOSED_AFTER_MS));
  if (closedEnd <= firstFull) {
    return readDeviceDataBuckets(tx, companyId, deviceId, range, fields, bucketSeconds);
  }
  const hours = await readHours(tx, companyId, deviceId, fields, {
    from: new Date(firstFull),
    to: new Date(closedEnd),
  });
  const head =
    from < firstFull
      ? await readHeadBucket(tx, companyId, deviceId, range.from, firstFull, fields, bucketSeconds, now)
      : [];
  const tail =
    closedEnd < to
      ? await readDeviceDataBuckets(
          tx,
          companyId,
          deviceId,
          { from: new Date(closedEnd), to: range.to },
          fields,
          bucketSeconds,
        )
      : [];
  const middle: DataBucketRecord[] = [];
  for (let start = firstFull; start < closedEnd; start += widthMs) {
    const parts: DataBucketRecord[] = [];
    for (let hour = start; hour < start + widthMs; hour += HOUR_MS) {
      const part = hours.get(hour);
      if (part) parts.push(part);
    }
    // Buckets without rows are absent, as in the raw query.
    middle.push(...mergeBuckets(new Date(start), parts, fields));
  }
  return [...head, ...middle, ...tail];
}

/** One bucket starting at `start` out of `parts` (buckets of the same fields over disjoint times). */
function mergeBuckets(start: Date, parts: DataBucketRecord[], fields: readonly string[]): DataBucketRecord[] {
  const count = parts.reduce((n, part) => n + part.count, 0);
  if (count === 0) return [];
  const merged = fields.map((field): [string, FieldStats] => {
    const all = parts.map((part) => part.fields[field]).filter((s): s is FieldStats => s !== undefined);
    const numbers = (pick: (s: FieldStats) => number | null) =>
      all.map(pick).filter((v): v is number => v !== null);
    const mins = numbers((s) => s.min);
    const maxs = numbers((s) => s.max);
    const sums = numbers((s) => s.sum);
    return [
      field,
      stats(
        mins.length > 0 ? Math.min(...mins) : null,
        maxs.length > 0 ? Math.max(...maxs) : null,
        sums.length > 0 ? sums.reduce((a, b) => a + b, 0) : null,
        all.reduce((n, s) => n + s.count, 0),
      ),
    ];
  });
  return [{ start, count, fields: Object.fromEntries(merged) }];
}

/**
 * The partial bucket at a range's start: its whole hours from the one-hour rollups (read-through), the
 * minutes before the first whole hour from the raw rows, merged. Raw rows past a company's retention are
 * deleted while their hours are kept (issue #29), so the first bucket of a year chart stays complete too.
 */
async function readHeadBucket(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  from: Date,
  firstFull: number,
  fields: readonly string[],
  bucketSeconds: number,
  now: Date,
): Promise<DataBucketRecord[]> {
  const hourMs = 3_600_000;
  const origin = Date.parse(BUCKET_ORIGIN);
  const firstHour = origin + Math.ceil((from.getTime() - origin) / hourMs) * hourMs;
  const raw = (to: number) =>
    readDeviceDataBuckets(tx, companyId, deviceId, { from, to: new Date(to) }, fields, bucketSeconds);
  if (bucketSeconds <= 3600 || firstHour >= firstFull) return raw(firstFull);
  const parts = [
    ...(from.getTime() < firstHour ? await raw(firstHour) : []),
    ...(await readDeviceDataBucketsRolledUp(
      tx,
      companyId,
      deviceId,
      { from: new Date(firstHour), to: new Date(firstFull) },
      fields,
      3600,
      now,
    )),
  ];
  const widthMs = bucketSeconds * 1000;
  return mergeBuckets(
    new Date(origin + Math.floor((from.getTime() - origin) / widthMs) * widthMs),
    parts,
    fields,
  );
}

/** JSON for float8[] input: non-finite sums as the strings float8 reads ("Infinity", "NaN"). */
const finite = (v: number | null) => (v === null || Number.isFinite(v) ? v : String(v));

/**
 * Computes the hours of `spans` from the raw rows, every field of the device's series, and stores each
 * hour not in `skip` (zero counts included, so an empty hour is not rebuilt); `built` gets them all.
 * Returns the hours stored.
 */
export async function buildRollups(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  spans: readonly DataRange[],
  built: Map<number, DataBucketRecord>,
  skip: ReadonlySet<number>,
): Promise<number> {
  // Held until the transaction ends; taken before the raw read so late rows still being written are in it.
  await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [ROLLUP_LOCK_CLASS, deviceId % 2147483647]);
  const { rows: series } = await tx.query<{ id: number; fields: string[] }>(
    `SELECT s.id, s.fields FROM ${SERIES_OF}`,
    [deviceId, companyId],
  );
  if (!series[0]) return 0;
  const { id, fields } = series[0];
  const byStart = new Map<number, DataBucketRecord>();
  for (const span of spans) {
    for (const bucket of await readDeviceDataBuckets(
      tx,
      companyId,
      deviceId,
      span,
      fields,
      ROLLUP_BASE_SECONDS,
    ))
      byStart.set(bucket.start.getTime(), bucket);
  }
  const rows: { h: string; n: number; s: (number | string | null)[] | null; c: number[] | null }[] = [];
  for (const span of spans) {
    for (let start = span.from.getTime(); start < span.to.getTime(); start += HOUR_MS) {
      const bucket = byStart.get(start) ?? { start: new Date(start), count: 0, fields: {} };
      built.set(start, bucket);
      if (skip.has(start)) continue;
      const all = fields.map((f) => bucket.fields[f] ?? stats(null, null, null, 0));
      const partial = all.some((f) => f.count !== 0 && f.count !== bucket.count);
      rows.push({
        h: new Date(start).toISOString(),
        n: bucket.count,
        s: bucket.count === 0 ? null : all.flatMap((f) => [finite(f.min), finite(f.max), finite(f.sum)]),
        c: partial ? all.map((f) => f.count) : null,
      });
    }
  }
  if (rows.length === 0) return 0;
  const { rowCount } = await tx.query(
    `INSERT INTO device_rollups (series, rows, hour, stats, counts)
     SELECT $1, r.n, r.h, r.s, r.c
       FROM jsonb_to_recordset($2::jsonb) AS r(h timestamptz, n int, s float8[], c int[])
     ON CONFLICT DO NOTHING`,
    [id, JSON.stringify(rows)],
  );
  return rowCount;
}
