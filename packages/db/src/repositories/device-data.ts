/**
 * Reads of measured data for the console and the API: raw points, the newest record, downsampled buckets
 * for charts, and the latest values per field. Data rows keep the company that owned the device when they
 * were recorded, so every read filters by the acting company as well as the device.
 */
import type { Queryable } from '../db';

export interface DataPointRecord {
  createdAt: Date;
  /** Only the requested fields (all fields when none were requested). */
  data: Record<string, unknown>;
  latitude: number | null;
  longitude: number | null;
  metalabel: string | null;
}

/** Per-field statistics of one bucket; null where the bucket holds no numeric value of the field. */
export interface FieldStats {
  min: number | null;
  max: number | null;
  avg: number | null;
  sum: number | null;
  /** Numeric values of the field in the bucket. */
  count: number;
}

export interface DataBucketRecord {
  /** Start of the bucket (date_bin with origin 2000-01-01T00:00:00Z). */
  start: Date;
  /** Rows in the bucket. */
  count: number;
  fields: Record<string, FieldStats>;
}

export interface DataRange {
  from: Date;
  /** Exclusive upper bound. */
  to: Date;
}

/** Origin of the bucket grid: buckets of a whole number of minutes, hours or days start on round times. */
export const BUCKET_ORIGIN = '2000-01-01T00:00:00Z';

/**
 * The numeric value of `data->field`: JSON numbers as they are, booleans as 1 and 0 (pump and valve
 * states chart as steps), anything else (text, objects) NULL, so one odd value never fails a whole chart.
 * `p` is the placeholder holding the field name.
 */
function numericValue(p: string): string {
  const key = `${p}::text`;
  return `CASE jsonb_typeof(data -> ${key})
    WHEN 'number' THEN (data ->> ${key})::float8
    WHEN 'boolean' THEN CASE WHEN (data -> ${key})::boolean THEN 1.0 ELSE 0.0 END
  END`;
}

/** Keeps only `fields` of a data object (SQL side, so unrequested fields never leave the database). */
function pickFields(fieldsParam: string): string {
  return `CASE WHEN ${fieldsParam}::text[] IS NULL THEN data
    ELSE (SELECT coalesce(jsonb_object_agg(key, value), '{}'::jsonb) FROM jsonb_each(data)
           WHERE key = ANY(${fieldsParam}::text[])) END`;
}

interface PointRow {
  created_at: Date;
  data: Record<string, unknown>;
  latitude: number | null;
  longitude: number | null;
  metalabel: string | null;
}

function toPoint(row: PointRow): DataPointRecord {
  return {
    createdAt: row.created_at,
    data: row.data,
    latitude: row.latitude,
    longitude: row.longitude,
    metalabel: row.metalabel,
  };
}

/** Rows of a device in a range (the unique index (device_id, created_at DESC, message_id) serves it). */
export async function countDeviceData(
  q: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM device_data
      WHERE device_id = $1 AND company_id = $2 AND created_at >= $3 AND created_at < $4`,
    [deviceId, companyId, range.from, range.to],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The points of a range, oldest first; `fields` null = every field. Both reads below order exactly like
 * the index (device_id, created_at DESC, message_id), read forwards or backwards, so no sort is needed and
 * the newest record is a single index entry.
 */
export async function readDeviceData(
  q: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
  fields: readonly string[] | null,
): Promise<DataPointRecord[]> {
  const { rows } = await q.query<PointRow>(
    `SELECT created_at, ${pickFields('$5')} AS data, latitude, longitude, metalabel FROM device_data
      WHERE device_id = $1 AND company_id = $2 AND created_at >= $3 AND created_at < $4
      ORDER BY created_at, message_id DESC`,
    [deviceId, companyId, range.from, range.to, fields],
  );
  return rows.map(toPoint);
}

/** The newest record (within `range` if given), or null. */
export async function readLastDeviceRecord(
  q: Queryable,
  companyId: number,
  deviceId: number,
  fields: readonly string[] | null,
  range?: DataRange,
): Promise<DataPointRecord | null> {
  const params: unknown[] = [deviceId, companyId, fields];
  let rangeSql = '';
  if (range) {
    params.push(range.from, range.to);
    rangeSql = 'AND created_at >= $4 AND created_at < $5';
  }
  const { rows } = await q.query<PointRow>(
    `SELECT created_at, ${pickFields('$3')} AS data, latitude, longitude, metalabel FROM device_data
      WHERE device_id = $1 AND company_id = $2 ${rangeSql}
      ORDER BY created_at DESC, message_id LIMIT 1`,
    params,
  );
  return rows[0] ? toPoint(rows[0]) : null;
}

/**
 * Downsampled series for charts from the raw rows: one row per bucket of `bucketSeconds` with min, max,
 * sum and count of every field, in one pass over the device's rows of the range. Each row's values are
 * pulled out once in a narrow subquery (OFFSET 0 keeps the planner from inlining it and evaluating the
 * JSONB extraction once per aggregate), so grouping handles a few numbers instead of whole rows. Buckets
 * without rows are absent (a chart shows the gap). Field names are bound parameters, never spliced.
 */
export async function readDeviceDataBuckets(
  q: Queryable,
  companyId: number,
  deviceId: number,
  range: DataRange,
  fields: readonly string[],
  bucketSeconds: number,
): Promise<DataBucketRecord[]> {
  checkBucket(bucketSeconds);
  const params: unknown[] = [
    deviceId,
    companyId,
    range.from,
    range.to,
    `${bucketSeconds} seconds`,
    BUCKET_ORIGIN,
  ];
  const values = fields.map((field, i) => {
    params.push(field);
    return `${numericValue(`$${params.length}`)} AS v${i}`;
  });
  const aggregates = fields.map(
    (_, i) =>
      `, min(v${i}) AS min_${i}, max(v${i}) AS max_${i}, sum(v${i}) AS sum_${i}, count(v${i})::int AS n_${i}`,
  );
  const { rows } = await q.query<Record<string, unknown>>(
    `SELECT bucket, count(*)::int AS n ${aggregates.join('')}
       FROM (SELECT date_bin($5::interval, created_at, $6::timestamptz) AS bucket
                    ${values.map((v) => `, ${v}`).join('')}
               FROM device_data
              WHERE device_id = $1 AND company_id = $2 AND created_at >= $3 AND created_at < $4
             OFFSET 0) AS v
      GROUP BY bucket ORDER BY bucket`,
    params,
  );
  return rows.map((row) => ({
    start: row.bucket as Date,
    count: row.n as number,
    fields: Object.fromEntries(
      fields.map((field, i) => [
        field,
        stats(
          row[`min_${i}`] as number | null,
          row[`max_${i}`] as number | null,
          row[`sum_${i}`] as number | null,
          (row[`n_${i}`] as number | null) ?? 0,
        ),
      ]),
    ),
  }));
}

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
const ROLLUP_LOCK_CLASS = 1919904876;
/** The rollup field holding the rows of a bucket (migration 0009). */
const ROW_COUNT_FIELD = '';
/** Separate raw reads of missing buckets at most; more runs are read as one span. */
const MAX_BUILD_RUNS = 4;

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
      ? await readDeviceDataBuckets(
          tx,
          companyId,
          deviceId,
          { from: range.from, to: new Date(firstFull) },
          fields,
          bucketSeconds,
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

/**
 * Computes the buckets of `spans` from the raw rows and stores every (field, bucket) of them that was not
 * stored yet, zero counts included; `interior` gets the computed statistics for the whole spans.
 */
async function buildRollups(
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

/** The finest stored width; every other stored width is a whole number of it on the same origin. */
export const ROLLUP_BASE_SECONDS = 3600;

/**
 * How buildRollupsAhead derives the coarse widths: [source width, widths built from it]. Every width is
 * a whole number of its source's on the same origin, and a stored bucket is always whole (closed, built
 * from all of its rows or sources), so a coarse bucket with all of its sources stored is exact.
 */
const ROLLUP_DERIVATION_LEVELS: readonly (readonly [number, readonly number[]])[] = [
  [3600, [7200, 10800]],
  [10800, [21600]],
  [21600, [43200]],
  [43200, [86400]],
  [86400, [172800, 604800, 2592000]],
];

export interface RollupsAheadResult {
  /** Hours read from the raw rows (missing one-hour buckets, as runs). */
  rawHours: number;
  /** Rows stored in device_data_rollups: one-hour buckets and the coarser widths derived from them. */
  stored: number;
  /** With `wait: false`: another builder (or a late row's trigger) held the device's lock; nothing done. */
  busy?: true;
}

/**
 * Builds the closed buckets of `range` ahead of any read (the background rollup builder): the one-hour
 * buckets not stored yet from the raw rows, then every coarser width from the stored buckets of a finer
 * width (ROLLUP_DERIVATION_LEVELS), never from raw rows again. Every stored width is a whole number of
 * hours on the same origin (2000-01-01T00:00:00Z), so a coarse bucket is exactly the union of its source
 * buckets: minimum of the minimums, maximum of the maximums, sum of the sums and of the counts give what
 * the raw query gives (sums up to the order of float additions, which the raw query does not fix
 * either). A coarse bucket is derived only when all of its source buckets are stored for that field, so
 * it is closed too and never half built.
 *
 * The coarse widths are derived when this call stored an hour, or when a coarse bucket lying wholly
 * inside the range is missing (hours stored by a chart read, or an earlier call stopped halfway); a range
 * already built costs two small queries, which keeps repeated passes over built history cheap.
 *
 * `tx` must be a transaction (see readDeviceDataBucketsRolledUp); the builder's advisory lock is taken
 * before anything is checked, so two builders of one device run one after the other and the second finds
 * everything stored; with `wait: false` the second returns at once with `busy` instead.
 */
export async function buildRollupsAhead(
  tx: Queryable,
  companyId: number,
  deviceId: number,
  fields: readonly string[],
  range: DataRange,
  options: { now?: Date; wait?: boolean } = {},
): Promise<RollupsAheadResult> {
  const now = options.now ?? new Date();
  const chartable = [...new Set(fields)].filter((field) => field !== ROW_COUNT_FIELD);
  const keys = [ROW_COUNT_FIELD, ...chartable];
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
  const { rows: present } = await tx.query<{ t: number; fields: string[] }>(
    `SELECT (extract(epoch FROM bucket) * 1000)::float8 AS t, array_agg(field) AS fields
       FROM device_data_rollups
      WHERE device_id = $1 AND company_id = $2 AND field = ANY($3::text[]) AND bucket_seconds = $4
        AND bucket >= $5 AND bucket < $6
      GROUP BY bucket`,
    [deviceId, companyId, keys, ROLLUP_BASE_SECONDS, new Date(from), new Date(to)],
  );
  // Only which keys an hour has matters to buildRollups; the statistics are not read here.
  const known = new Map<number, Map<string, FieldStats>>();
  for (const row of present) {
    known.set(Number(row.t), new Map(row.fields.map((field) => [field, stats(null, null, null, 0)])));
  }
  const runs: DataRange[] = [];
  let rawHours = 0;
  for (let start = from; start < to; start += widthMs) {
    const has = known.get(start);
    if (has && keys.every((key) => has.has(key))) continue;
    rawHours += 1;
    const last = runs.at(-1);
    if (last && last.to.getTime() === start) last.to = new Date(start + widthMs);
    else runs.push({ from: new Date(start), to: new Date(start + widthMs) });
  }
  const spans = runs.length > MAX_BUILD_RUNS ? [{ from: runs[0]!.from, to: runs.at(-1)!.to }] : runs;
  let stored = 0;
  if (spans.length > 0) {
    stored += await buildRollups(tx, companyId, deviceId, chartable, ROLLUP_BASE_SECONDS, keys, known, spans);
  }
  if (stored === 0) {
    const { rows: coarse } = await tx.query<{ seconds: number; n: number }>(
      `SELECT bucket_seconds AS seconds, count(*)::int AS n FROM device_data_rollups
        WHERE device_id = $1 AND company_id = $2 AND field = ANY($3::text[]) AND bucket_seconds <> $4
          AND bucket >= $5 AND bucket < $6
        GROUP BY bucket_seconds`,
      [deviceId, companyId, keys, ROLLUP_BASE_SECONDS, new Date(from), new Date(to)],
    );
    const found = new Map(coarse.map((row) => [row.seconds, row.n]));
    const complete = ROLLUP_BUCKET_SECONDS.every((seconds) => {
      if (seconds === ROLLUP_BASE_SECONDS) return true;
      const w = seconds * 1000;
      const firstStart = binStartOf(from - 1, seconds) + w;
      const inside = Math.max(0, Math.floor((binStartOf(to, seconds) - firstStart) / w));
      return (found.get(seconds) ?? 0) >= inside * keys.length;
    });
    if (complete) return { rawHours, stored };
  }
  // Coarse buckets overlapping [from, to), each width from the next finer stored width that divides it
  // (far fewer rows to aggregate than from the hours each time: a 30-day bucket is 30 days, not 720
  // hours); one statement per level, so each sees what the one before stored. Their source buckets may
  // reach beyond [from, to) (stored by an earlier call).
  for (const [source, widths] of ROLLUP_DERIVATION_LEVELS) {
    const { rowCount } = await tx.query(
      `INSERT INTO device_data_rollups (device_id, company_id, field, bucket_seconds, bucket, min, max, sum, count)
       SELECT $1, $2, r.field, w.seconds,
              date_bin(make_interval(secs => w.seconds), r.bucket, $7::timestamptz) AS coarse,
              min(r.min), max(r.max), sum(r.sum), sum(r.count)::int
         FROM unnest($4::int[]) AS w(seconds)
         JOIN device_data_rollups r
           ON r.device_id = $1 AND r.company_id = $2 AND r.field = ANY($3::text[]) AND r.bucket_seconds = $8
          AND r.bucket >= date_bin(make_interval(secs => w.seconds), $5::timestamptz, $7::timestamptz)
          AND r.bucket < date_bin(make_interval(secs => w.seconds), $6::timestamptz - interval '1 microsecond',
                                  $7::timestamptz) + make_interval(secs => w.seconds)
          AND r.bucket >= $9 AND r.bucket < $10
        GROUP BY r.field, w.seconds, coarse
       HAVING count(*) = w.seconds / $8
       ON CONFLICT DO NOTHING`,
      [
        deviceId,
        companyId,
        keys,
        widths,
        new Date(from),
        new Date(to),
        BUCKET_ORIGIN,
        source,
        // The same bounds for the widest width, as constants: the index scan can use them (the bounds
        // per width above depend on the joined width, which leaves the planner scanning every bucket).
        new Date(Math.min(...widths.map((w) => binStartOf(from, w)))),
        new Date(Math.max(...widths.map((w) => binStartOf(to - 1, w) + w * 1000))),
      ],
    );
    stored += rowCount;
  }
  return { rawHours, stored };
}

function binStartOf(t: number, seconds: number): number {
  const origin = Date.parse(BUCKET_ORIGIN);
  const widthMs = seconds * 1000;
  return origin + Math.floor((t - origin) / widthMs) * widthMs;
}

function checkBucket(bucketSeconds: number): void {
  if (!Number.isInteger(bucketSeconds) || bucketSeconds <= 0) {
    throw new RangeError(`bucketSeconds must be a positive integer, got ${bucketSeconds}`);
  }
}

function stats(min: number | null, max: number | null, sum: number | null, count: number): FieldStats {
  return {
    min,
    max,
    avg: count > 0 && sum !== null ? sum / count : null,
    sum: count > 0 ? sum : null,
    count,
  };
}

export interface CurrentValuesRecord {
  data: Record<string, unknown>;
  fieldTimes: Record<string, string>;
  latitude: number | null;
  longitude: number | null;
  updatedAt: Date;
}

/** The latest value of every field (device_current), or null before the device's first data. */
export async function readCurrentValues(
  q: Queryable,
  companyId: number,
  deviceId: number,
): Promise<CurrentValuesRecord | null> {
  const { rows } = await q.query<{
    data: Record<string, unknown>;
    field_times: Record<string, string>;
    latitude: number | null;
    longitude: number | null;
    updated_at: Date;
  }>(
    `SELECT data, field_times, latitude, longitude, updated_at FROM device_current
      WHERE device_id = $1 AND company_id = $2`,
    [deviceId, companyId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    data: row.data ?? {},
    fieldTimes: row.field_times ?? {},
    latitude: row.latitude,
    longitude: row.longitude,
    updatedAt: row.updated_at,
  };
}
