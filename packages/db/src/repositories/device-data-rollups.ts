/**
 * Chart buckets of an hour and more from the rollups (device_rollups, migration 0043): closed hours are
 * read from the rollups, and computed from the raw rows and stored on first read (read-through); blocks
 * of six hours likewise, merged from their hours. Widths of 2 and 3 hours are merged from the hours,
 * widths of 6 hours to 30 days from the blocks (a year chart reads 1,460 rows instead of 8,760).
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
/** The coarser stored width (device_rollups.hours = 6); every chart width from 6 hours is a multiple. */
export const ROLLUP_BLOCK_HOURS = 6;
const BLOCK_MS = ROLLUP_BLOCK_HOURS * HOUR_MS;

/** Chart widths served from the hourly rollups. */
export const ROLLUP_BUCKET_SECONDS: readonly number[] = [
  3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000,
];

/**
 * A bucket is rolled up once it ended this long ago. Migration 0043's triggers invalidate rolled-up buckets
 * for any row older than 15 minutes, so this must stay well above that: the margin covers writer batches in
 * flight and clock differences between the API and the database.
 */
export const ROLLUP_CLOSED_AFTER_MS = 30 * 60_000;

/** Advisory lock class shared with migration 0043's trigger functions ('roll'). */
export const ROLLUP_LOCK_CLASS = 1919904876;
/** A field named '' is never rolled up (the API reads it raw), as before migration 0043. */
export const ROW_COUNT_FIELD = '';
/** Separate raw reads of missing buckets at most; more runs are read as one span. */
export const MAX_BUILD_RUNS = 4;

/**
 * Closed chart buckets kept between reads by the caller (the API keeps them in memory). A closed bucket
 * changes only with a late row (older than 15 minutes: added, changed or deleted) or a deleted stored rollup
 * (rollup retention). Migrations 0045 and 0046 announce both on ROLLUPS_CHANGED_CHANNEL with the device's
 * id: keys begin with that id, so a cache can drop the device's entries (the API's AnnouncedCache, scoped
 * by it).
 */
export interface ClosedBucketCache {
  get(key: string): KeptBuckets | undefined;
  /** Taken before a read; `set` keeps its result only if nothing was dropped meanwhile. */
  mark(): number;
  set(key: string, value: KeptBuckets, mark: number): void;
}

/** The closed buckets of [from, to) (epoch ms, on the bucket grid), ascending; those without rows absent. */
export interface KeptBuckets {
  from: number;
  to: number;
  buckets: readonly DataBucketRecord[];
}

/** Announces late rows and deleted rollups (migrations 0045, 0046); the payload is the device's id. */
export const ROLLUPS_CHANGED_CHANNEL = 'iot_rollups_changed';

export function canRollUp(bucketSeconds: number, fields: readonly string[]): boolean {
  return ROLLUP_BUCKET_SECONDS.includes(bucketSeconds) && !fields.includes(ROW_COUNT_FIELD);
}

/** A stored hour (device_rollups, migration 0043): row count, [min, max, sum] per position, counts. */
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

/**
 * Walks `span` in steps of `stepMs`: the stored rollups as buckets of `fields`, and the steps none is stored
 * for as spans to build, consecutive steps joined into runs (beyond a few runs one read over the whole span
 * is cheaper than many round trips).
 */
function storedAndMissing(
  stored: StoredHours,
  fields: readonly string[],
  span: DataRange,
  stepMs: number,
): { result: Map<number, DataBucketRecord>; spans: DataRange[] } {
  const result = new Map<number, DataBucketRecord>();
  const runs: DataRange[] = [];
  for (let start = span.from.getTime(); start < span.to.getTime(); start += stepMs) {
    const hour = stored.hours.get(start);
    if (hour) {
      const byField = fields.map((f): [string, FieldStats] => [f, hourStats(hour, stored.fields.indexOf(f))]);
      result.set(start, { start: new Date(start), count: hour.rows, fields: Object.fromEntries(byField) });
      continue;
    }
    const last = runs.at(-1);
    if (last && last.to.getTime() === start) last.to = new Date(start + stepMs);
    else runs.push({ from: new Date(start), to: new Date(start + stepMs) });
  }
  const spans = runs.length > MAX_BUILD_RUNS ? [{ from: runs[0]!.from, to: runs.at(-1)!.to }] : runs;
  return { result, spans };
}

/** A series' stored rollups of one width by epoch ms of their start (series null: the device has none). */
interface StoredHours {
  series: number | null;
  fields: string[];
  hours: Map<number, StoredHour>;
}

/** Buckets by epoch ms of their start, and the device's series (null: none, so nothing is stored). */
interface Parts {
  series: number | null;
  result: Map<number, DataBucketRecord>;
}

/**
 * The device's series fields and its stored rollups of `hours` (1 or ROLLUP_BLOCK_HOURS) in `span`, by
 * epoch ms of their start.
 */
async function readStoredHours(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  span: DataRange,
  hoursWide = 1,
): Promise<StoredHours> {
  // One JSON text for all hours: a year is 8,760 rows, and decoding that many result rows costs PGlite
  // several times what JSON.parse of one text costs.
  const { rows } = await tx.query<{ id: number; fields: string[]; hours: string | null }>(
    `SELECT s.id, s.fields,
            (SELECT json_agg(json_build_array((extract(epoch FROM h.hour) * 1000)::bigint, h.rows, h.stats, h.counts)
                             ORDER BY h.hour)::text
               FROM device_rollups h
              WHERE h.series = s.id AND h.hours = $5 AND h.hour >= $3 AND h.hour < $4) AS hours
       FROM ${SERIES_OF}`,
    [deviceId, companyId, span.from, span.to, hoursWide],
  );
  const hours = new Map<number, StoredHour>();
  const list = JSON.parse(rows[0]?.hours ?? '[]') as [number, number, StoredHour['stats'], number[] | null][];
  for (const [start, count, s, counts] of list) hours.set(start, { rows: count, stats: s, counts });
  return { series: rows[0]?.id ?? null, fields: rows[0]?.fields ?? [], hours };
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
): Promise<Parts> {
  const stored = await readStoredHours(tx, companyId, deviceId, span);
  const { hours } = stored;
  const { result, spans } = storedAndMissing(stored, fields, span, HOUR_MS);
  if (spans.length > 0) {
    const built = new Map<number, DataBucketRecord>();
    await buildRollups(tx, companyId, deviceId, spans, built, new Set(hours.keys()));
    for (const [start, bucket] of built) {
      if (!hours.has(start)) result.set(start, withFields(bucket, fields));
    }
  }
  return { series: stored.series, result };
}

/**
 * The same buckets as readDeviceDataBuckets, from the stored hours where they are closed (ended
 * ROLLUP_CLOSED_AFTER_MS before `now`) and lie wholly inside the range: a coarse bucket is the merge of
 * its hours (minimum of the minimums, maximum of the maximums, sums of the sums and counts). The partial
 * buckets at the range's edges and the buckets still open come from the raw rows. Closed hours not
 * stored yet (first read, or invalidated by late data) are computed from the raw rows once and stored.
 *
 * `tx` must be a transaction: the advisory lock that keeps a concurrent late row from being missed by
 * what this stores lasts until it commits (see migration 0043).
 */
export async function readDeviceDataBucketsRolledUp(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
  fields: readonly string[],
  bucketSeconds: number,
  now: Date = new Date(),
  cache?: ClosedBucketCache,
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
  const series = { tx, companyId, deviceId, fields, bucketSeconds };
  const middle = await readClosedBuckets(series, firstFull, closedEnd, cache);
  const head =
    from < firstFull
      ? await readHeadBucket(
          tx,
          companyId,
          deviceId,
          range.from,
          firstFull,
          fields,
          bucketSeconds,
          now,
          cache,
        )
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
  return [...head, ...middle, ...tail];
}

/** What a read of one series' buckets is of. */
interface SeriesBuckets {
  tx: Queryable;
  companyId: number;
  deviceId: number;
  fields: readonly string[];
  bucketSeconds: number;
}

/**
 * The closed chart buckets of [from, to) (both on the bucket grid), from `cache` where it keeps them:
 * only the part it does not keep is read, and what was read is kept beside it. Without a series (no data
 * yet) nothing is kept: nothing was stored whose deletion would announce a late row.
 */
async function readClosedBuckets(
  series: SeriesBuckets,
  from: number,
  to: number,
  cache: ClosedBucketCache | undefined,
): Promise<DataBucketRecord[]> {
  if (!cache) return (await mergedBuckets(series, from, to)).buckets;
  const { deviceId, companyId, bucketSeconds, fields } = series;
  const key = `${deviceId} ${companyId} ${bucketSeconds} ${fields.join(',')}`;
  const kept = cache.get(key);
  if (kept && kept.from <= from && to <= kept.to) return bucketsWithin(kept.buckets, from, to);
  const mark = cache.mark();
  // Charts move forward: what is kept usually covers all but the newest bucket or two.
  const joins = kept !== undefined && kept.from <= to && from <= kept.to;
  const before = joins && from < kept.from ? await mergedBuckets(series, from, kept.from) : undefined;
  const after = joins && kept.to < to ? await mergedBuckets(series, kept.to, to) : undefined;
  const whole = joins ? undefined : await mergedBuckets(series, from, to);
  const reads = [before, after, whole].filter((read) => read !== undefined);
  const buckets = joins
    ? [...(before?.buckets ?? []), ...kept.buckets, ...(after?.buckets ?? [])]
    : (whole?.buckets ?? []);
  if (reads.every((read) => read.series !== null)) {
    const span = joins ? { from: Math.min(from, kept.from), to: Math.max(to, kept.to) } : { from, to };
    cache.set(key, { ...span, buckets }, mark);
  }
  return bucketsWithin(buckets, from, to);
}

function bucketsWithin(buckets: readonly DataBucketRecord[], from: number, to: number): DataBucketRecord[] {
  return buckets.filter((bucket) => bucket.start.getTime() >= from && bucket.start.getTime() < to);
}

/** The closed chart buckets of [from, to) merged from stored hours or blocks (read-through). */
async function mergedBuckets(
  { tx, companyId, deviceId, fields, bucketSeconds }: SeriesBuckets,
  from: number,
  to: number,
): Promise<{ series: number | null; buckets: DataBucketRecord[] }> {
  const widthMs = bucketSeconds * 1000;
  const span = { from: new Date(from), to: new Date(to) };
  // Chart buckets are whole blocks from 6 hours up, on the same origin.
  const partMs = widthMs % BLOCK_MS === 0 ? BLOCK_MS : HOUR_MS;
  const parts =
    partMs === BLOCK_MS
      ? await readBlocks(tx, companyId, deviceId, fields, span)
      : await readHours(tx, companyId, deviceId, fields, span);
  const buckets: DataBucketRecord[] = [];
  for (let start = from; start < to; start += widthMs) {
    const inBucket: DataBucketRecord[] = [];
    for (let part = start; part < start + widthMs; part += partMs) {
      const found = parts.result.get(part);
      if (found) inBucket.push(found);
    }
    // Buckets without rows are absent, as in the raw query.
    buckets.push(...mergeBuckets(new Date(start), inBucket, fields));
  }
  return { series: parts.series, buckets };
}

/** One bucket starting at `start` out of `parts` (buckets of the same fields over disjoint times). */
/** A built bucket with exactly the asked fields: those it has no value of are empty. */
function withFields(bucket: DataBucketRecord, fields: readonly string[]): DataBucketRecord {
  const byField = fields.map((f): [string, FieldStats] => [
    f,
    bucket.fields[f] ?? stats(null, null, null, 0),
  ]);
  return { start: bucket.start, count: bucket.count, fields: Object.fromEntries(byField) };
}

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
  cache: ClosedBucketCache | undefined,
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
      cache,
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
  const rows: RollupRow[] = [];
  for (const span of spans) {
    for (let start = span.from.getTime(); start < span.to.getTime(); start += HOUR_MS) {
      const bucket = byStart.get(start) ?? { start: new Date(start), count: 0, fields: {} };
      built.set(start, bucket);
      if (!skip.has(start)) rows.push(rollupRow(bucket, fields));
    }
  }
  return storeRollupRows(tx, id, 1, rows);
}

/** One stored rollup: start (ISO), rows, [min, max, sum] per position, counts where partial. */
interface RollupRow {
  h: string;
  n: number;
  s: (number | string | null)[] | null;
  c: number[] | null;
}

/** A bucket of all `fields` (the series' fields, in order) as a stored rollup row. */
function rollupRow(bucket: DataBucketRecord, fields: readonly string[]): RollupRow {
  const all = fields.map((f) => bucket.fields[f] ?? stats(null, null, null, 0));
  const partial = all.some((f) => f.count !== 0 && f.count !== bucket.count);
  return {
    h: bucket.start.toISOString(),
    n: bucket.count,
    s: bucket.count === 0 ? null : all.flatMap((f) => [finite(f.min), finite(f.max), finite(f.sum)]),
    c: partial ? all.map((f) => f.count) : null,
  };
}

async function storeRollupRows(
  tx: Queryable,
  series: number,
  hours: number,
  rows: RollupRow[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const { rowCount } = await tx.query(
    `INSERT INTO device_rollups (series, rows, hour, hours, stats, counts)
     SELECT $1, r.n, r.h, $3, r.s, r.c
       FROM jsonb_to_recordset($2::jsonb) AS r(h timestamptz, n int, s float8[], c int[])
     ON CONFLICT DO NOTHING`,
    [series, JSON.stringify(rows), hours],
  );
  return rowCount;
}

/**
 * The closed blocks of six hours of `span` (on the block grid) for `fields`: stored ones from
 * device_rollups, missing ones merged from their hours (readHours: stored, or built from the raw rows)
 * and stored, as the hours are.
 */
async function readBlocks(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  fields: readonly string[],
  span: DataRange,
): Promise<Parts> {
  const stored = await readStoredHours(tx, companyId, deviceId, span, ROLLUP_BLOCK_HOURS);
  const blocks = stored.hours;
  const { result, spans } = storedAndMissing(stored, fields, span, BLOCK_MS);
  for (const run of spans) {
    for (const [start, block] of await buildBlocks(tx, companyId, deviceId, run, new Set(blocks.keys()))) {
      if (!blocks.has(start)) result.set(start, withFields(block, fields));
    }
  }
  return { series: stored.series, result };
}

/**
 * Merges the blocks of `span` (on the block grid, closed) from their hours, every field of the series,
 * and stores those not in `skip`. Under the builders' lock, taken before the hours are read: a late row's
 * trigger deletes its hour and its block together, either before this reads them or after it commits.
 */
export async function buildBlocks(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  span: DataRange,
  skip: ReadonlySet<number>,
): Promise<Map<number, DataBucketRecord>> {
  await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [ROLLUP_LOCK_CLASS, deviceId % 2147483647]);
  const built = new Map<number, DataBucketRecord>();
  const { rows: series } = await tx.query<{ id: number; fields: string[] }>(
    `SELECT s.id, s.fields FROM ${SERIES_OF}`,
    [deviceId, companyId],
  );
  if (!series[0]) return built;
  const { id, fields } = series[0];
  const { result: hours } = await readHours(tx, companyId, deviceId, fields, span);
  const rows: RollupRow[] = [];
  for (let start = span.from.getTime(); start < span.to.getTime(); start += BLOCK_MS) {
    const parts: DataBucketRecord[] = [];
    for (let hour = start; hour < start + BLOCK_MS; hour += HOUR_MS) {
      const part = hours.get(hour);
      if (part) parts.push(part);
    }
    const block = mergeBuckets(new Date(start), parts, fields)[0] ?? {
      start: new Date(start),
      count: 0,
      fields: {},
    };
    built.set(start, block);
    // Zero counts included, so an empty block is not rebuilt.
    if (!skip.has(start)) rows.push(rollupRow(block, fields));
  }
  await storeRollupRows(tx, id, ROLLUP_BLOCK_HOURS, rows);
  return built;
}
