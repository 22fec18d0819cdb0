/**
 * The background rollup builder's statements: closed one-hour buckets from the raw rows, every coarser
 * width derived from the stored buckets of a finer one.
 */
import type { Queryable } from '../db';
import { BUCKET_ORIGIN, binStartOf, type DataRange, type FieldStats, stats } from './device-data-buckets';
import {
  buildRollups,
  MAX_BUILD_RUNS,
  ROLLUP_BUCKET_SECONDS,
  ROLLUP_CLOSED_AFTER_MS,
  ROLLUP_LOCK_CLASS,
  ROW_COUNT_FIELD,
} from './device-data-rollups';

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
