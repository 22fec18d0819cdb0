/**
 * Chart buckets of an hour and more from device_data_rollups (migration 0009): closed buckets are read
 * from the rollups, and computed from the raw rows and stored on first read (read-through).
 */
import type { Queryable } from '../db';
import {
  BUCKET_ORIGIN,
  type DataBucketRecord,
  type DataRange,
  type FieldStats,
  readDeviceDataBuckets,
  stats,
} from './device-data-buckets';

/** Chart widths stored in device_data_rollups (migration 0009 allows exactly these). */
export const ROLLUP_BUCKET_SECONDS: readonly number[] = [
  3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000,
];

/**
 * A bucket is rolled up once it ended this long ago. Migration 0009's triggers invalidate rolled-up buckets
 * for any row older than 15 minutes, so this must stay well above that: the margin covers writer batches in
 * flight and clock differences between the API and the database.
 */
export const ROLLUP_CLOSED_AFTER_MS = 30 * 60_000;

/** Advisory lock class shared with migration 0009's trigger function ('roll'). */
export const ROLLUP_LOCK_CLASS = 1919904876;
/** The rollup field holding the rows of a bucket (migration 0009). */
export const ROW_COUNT_FIELD = '';
/** Separate raw reads of missing buckets at most; more runs are read as one span. */
export const MAX_BUILD_RUNS = 4;

export function canRollUp(bucketSeconds: number, fields: readonly string[]): boolean {
  return ROLLUP_BUCKET_SECONDS.includes(bucketSeconds) && !fields.includes(ROW_COUNT_FIELD);
}

/** One field's stored buckets as parallel JSON arrays (bucket starts in epoch ms). */
interface RollupColumns {
  field: string;
  starts: string;
  mins: string;
  maxs: string;
  sums: string;
  counts: string;
}

/** JSON from float8: numbers, null, or the strings "Infinity" / "-Infinity" / "NaN" for non-finite sums. */
function jsonNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

/**
 * The same buckets as readDeviceDataBuckets, read from device_data_rollups where they are closed (ended
 * ROLLUP_CLOSED_AFTER_MS before `now`) and lie wholly inside the range; the partial buckets at the range's
 * edges and the buckets still open come from the raw rows. Closed buckets not stored yet (first read, or
 * invalidated by late data) are computed from the raw rows once and stored, read-through.
 *
 * `tx` must be a transaction: the advisory lock that keeps a concurrent late row from being missed by
 * what this stores lasts until it commits (see migration 0009).
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
  const origin = Date.parse(BUCKET_ORIGIN);
  const binStart = (t: number) => origin + Math.floor((t - origin) / widthMs) * widthMs;
  const from = range.from.getTime();
  const to = range.to.getTime();
  const firstFull = binStart(from) === from ? from : binStart(from) + widthMs;
  const closedEnd = Math.min(binStart(to), binStart(now.getTime() - ROLLUP_CLOSED_AFTER_MS));
  if (closedEnd <= firstFull) {
    return readDeviceDataBuckets(tx, companyId, deviceId, range, fields, bucketSeconds);
  }
  const keys = [ROW_COUNT_FIELD, ...new Set(fields)];
  // One row per field with its buckets as JSON arrays: a year of 6-hour buckets is 1,460 rows per field,
  // and decoding that many result rows costs PGlite several times what JSON.parse of five texts costs.
  const { rows: stored } = await tx.query<RollupColumns>(
    `SELECT field,
            json_agg((extract(epoch FROM bucket) * 1000)::bigint ORDER BY bucket)::text AS starts,
            json_agg(min ORDER BY bucket)::text AS mins, json_agg(max ORDER BY bucket)::text AS maxs,
            json_agg(sum ORDER BY bucket)::text AS sums, json_agg(count ORDER BY bucket)::text AS counts
       FROM device_data_rollups
      WHERE device_id = $1 AND company_id = $2 AND field = ANY($3::text[]) AND bucket_seconds = $4
        AND bucket >= $5 AND bucket < $6
      GROUP BY field`,
    [deviceId, companyId, keys, bucketSeconds, new Date(firstFull), new Date(closedEnd)],
  );
  const interior = new Map<number, Map<string, FieldStats>>();
  for (const row of stored) {
    const starts = JSON.parse(row.starts) as number[];
    const mins = JSON.parse(row.mins) as (number | string | null)[];
    const maxs = JSON.parse(row.maxs) as (number | string | null)[];
    const sums = JSON.parse(row.sums) as (number | string | null)[];
    const counts = JSON.parse(row.counts) as number[];
    starts.forEach((start, i) => {
      const byField = interior.get(start) ?? new Map<string, FieldStats>();
      interior.set(start, byField);
      byField.set(
        row.field,
        stats(
          jsonNumber(mins[i] ?? null),
          jsonNumber(maxs[i] ?? null),
          jsonNumber(sums[i] ?? null),
          counts[i] ?? 0,
        ),
      );
    });
  }
  // Missing buckets as runs of consecutive buckets: a late row months back and the bucket closed since
  // the last read cost two small reads, not one over everything between them.
  const runs: DataRange[] = [];
  for (let start = firstFull; start < closedEnd; start += widthMs) {
    const byField = interior.get(start);
    if (byField && keys.every((key) => byField.has(key))) continue;
    const last = runs.at(-1);
    if (last && last.to.getTime() === start) last.to = new Date(start + widthMs);
    else runs.push({ from: new Date(start), to: new Date(start + widthMs) });
  }
  // Beyond a few runs one read over the whole span is cheaper than many round trips.
  const spans = runs.length > MAX_BUILD_RUNS ? [{ from: runs[0]!.from, to: runs.at(-1)!.to }] : runs;
  if (spans.length > 0) {
    await buildRollups(tx, companyId, deviceId, fields, bucketSeconds, keys, interior, spans);
  }
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
    const byField = interior.get(start);
    const count = byField?.get(ROW_COUNT_FIELD)?.count ?? 0;
    // Buckets without rows are absent, as in the raw query.
    if (!byField || count === 0) continue;
    middle.push({
      start: new Date(start),
      count,
      fields: Object.fromEntries(
        fields.map((field) => [field, byField.get(field) ?? stats(null, null, null, 0)]),
      ),
    });
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

/**
 * Computes the buckets of `spans` from the raw rows and stores every (field, bucket) of them that was not
 * stored yet, zero counts included; `interior` gets the computed statistics for the whole spans.
 */
export async function buildRollups(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  fields: readonly string[],
  bucketSeconds: number,
  keys: readonly string[],
  interior: Map<number, Map<string, FieldStats>>,
  spans: readonly DataRange[],
): Promise<number> {
  // Held until the transaction ends; taken before the raw read so late rows still being written are in it.
  await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [ROLLUP_LOCK_CLASS, deviceId % 2147483647]);
  const byStart = new Map<number, DataBucketRecord>();
  for (const span of spans) {
    for (const bucket of await readDeviceDataBuckets(tx, companyId, deviceId, span, fields, bucketSeconds))
      byStart.set(bucket.start.getTime(), bucket);
  }
  const rows = {
    field: [] as string[],
    bucket: [] as string[],
    min: [] as (number | null)[],
    max: [] as (number | null)[],
    sum: [] as (number | null)[],
    count: [] as number[],
  };
  const widthMs = bucketSeconds * 1000;
  for (const span of spans) {
    for (let start = span.from.getTime(); start < span.to.getTime(); start += widthMs) {
      const bucket = byStart.get(start);
      const fresh = new Map<string, FieldStats>([
        [ROW_COUNT_FIELD, stats(null, null, null, bucket?.count ?? 0)],
        ...fields.map((field): [string, FieldStats] => [
          field,
          bucket?.fields[field] ?? stats(null, null, null, 0),
        ]),
      ]);
      const known = interior.get(start);
      for (const key of keys) {
        if (known?.has(key)) continue;
        const s = fresh.get(key) as FieldStats;
        rows.field.push(key);
        rows.bucket.push(new Date(start).toISOString());
        rows.min.push(s.min);
        rows.max.push(s.max);
        rows.sum.push(s.sum);
        rows.count.push(s.count);
      }
      interior.set(start, fresh);
    }
  }
  if (rows.field.length === 0) return 0;
  const { rowCount } = await tx.query(
    `INSERT INTO device_data_rollups (device_id, company_id, field, bucket_seconds, bucket, min, max, sum, count)
     SELECT $1, $2, u.field, $3, u.bucket, u.min, u.max, u.sum, u.count
       FROM unnest($4::text[], $5::timestamptz[], $6::float8[], $7::float8[], $8::float8[], $9::int[])
            AS u(field, bucket, min, max, sum, count)
     ON CONFLICT DO NOTHING`,
    [deviceId, companyId, bucketSeconds, rows.field, rows.bucket, rows.min, rows.max, rows.sum, rows.count],
  );
  return rowCount;
}
