import { describe, expect, it, vi } from 'vitest';
import type { Db, Queryable } from '../db';
import { type RollupBuilder, type RollupBuilderOptions, startRollupBuilder } from '../rollup-builder';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { insertCompany } from './companies';
import {
  BUCKET_ORIGIN,
  type DataBucketRecord,
  type DataRange,
  readDeviceDataBuckets,
} from './device-data-buckets';
import { ROLLUP_BUCKET_SECONDS, readDeviceDataBucketsRolledUp } from './device-data-rollups';
import { buildRollupsAhead } from './device-data-rollups-ahead';

const HOUR = 3600;
const DAY_MS = 86_400_000;
const T0 = Date.parse('2025-03-01T00:00:00Z');
/** Every bucket around March 2025 is long closed. */
const NOW = new Date('2026-01-01T00:00:00Z');
const FIELDS = ['temperature', 'humidity', 'pump'];
const ORIGIN = Date.parse(BUCKET_ORIGIN);
const binStart = (t: number, seconds: number) =>
  ORIGIN + Math.floor((t - ORIGIN) / (seconds * 1000)) * seconds * 1000;
const quietLog = { info: () => undefined, warn: () => undefined };

/** A device with `days` of 10-minute rows from `start` (text now and then, booleans, a gap on day 4). */
async function seededDevice(
  db: Db,
  companyId: number,
  { start = T0, days = 10, current = true }: { start?: number; days?: number; current?: boolean } = {},
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO devices (company_id, name) VALUES ($1, 'ahead') RETURNING id::int AS id`,
    [companyId],
  );
  const id = rows[0]!.id;
  await db.query(
    `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
     SELECT $1, $2, $3::timestamptz + make_interval(mins => 10 * g),
            jsonb_build_object('temperature', CASE WHEN g % 97 = 0 THEN to_jsonb('n/a'::text)
                                                    ELSE to_jsonb(10 + 15 * sin(g / 144.0 * 6.283)) END,
                               'humidity', 50 + (g % 40), 'pump', g % 3 = 0),
            g::text
       FROM generate_series(0, $4::int * 144 - 1) AS g
      WHERE g NOT BETWEEN 4 * 144 AND 5 * 144 - 1`,
    [id, companyId, new Date(start).toISOString(), days],
  );
  if (current) {
    // The fields the builder charts are those the device currently reports (as the API's default).
    await db.query(
      `INSERT INTO device_current (device_id, company_id, data, updated_at)
       VALUES ($1, $2, '{"temperature": 1, "humidity": 2, "pump": true}', $3)`,
      [id, companyId, new Date(start + days * DAY_MS)],
    );
  }
  return id;
}

async function storedRows(db: Db, deviceId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM device_data_rollups WHERE device_id = $1',
    [deviceId],
  );
  return rows[0]!.n;
}

/**
 * The API's read in its tenant transaction, recording every raw bucketing query (date_bin over device_data)
 * with its range (params 3 and 4).
 */
async function readCountingRaw(
  db: Db,
  companyId: number,
  deviceId: number,
  range: DataRange,
  seconds: number,
  now: Date = NOW,
): Promise<{ buckets: DataBucketRecord[]; rawReads: [number, number][] }> {
  const rawReads: [number, number][] = [];
  const buckets = await withTenant(db, companyId, (tx) => {
    const recording: Queryable = {
      exec: (sql) => tx.exec(sql),
      query: (sql, params) => {
        if (sql.includes('date_bin') && !sql.includes('device_data_rollups')) {
          rawReads.push([(params![2] as Date).getTime(), (params![3] as Date).getTime()]);
        }
        return tx.query(sql, params);
      },
    };
    return readDeviceDataBucketsRolledUp(recording, companyId, deviceId, range, FIELDS, seconds, now);
  });
  return { buckets, rawReads };
}

/** Runs a builder until it finished its first backfill pass, then stops it (its progress stays readable). */
async function untilFirstBackfillPass(options: RollupBuilderOptions): Promise<RollupBuilder> {
  const builder = startRollupBuilder(options);
  try {
    await vi.waitFor(() => expect(builder.progress().backfillPasses).toBeGreaterThan(0), {
      timeout: 20_000,
      interval: 50,
    });
  } finally {
    await builder.stop();
  }
  return builder;
}

function expectSameBuckets(actual: DataBucketRecord[], expected: DataBucketRecord[]): void {
  expect(actual.map((b) => [b.start.toISOString(), b.count])).toEqual(
    expected.map((b) => [b.start.toISOString(), b.count]),
  );
  actual.forEach((bucket, i) => {
    for (const [field, s] of Object.entries(expected[i]!.fields)) {
      const got = bucket.fields[field]!;
      expect([got.min, got.max, got.count], `${field} ${bucket.start.toISOString()}`).toEqual([
        s.min,
        s.max,
        s.count,
      ]);
      // Sums of sums differ from the raw sum only by the order of float additions.
      if (s.sum === null) expect(got.sum).toBeNull();
      else expect(got.sum).toBeCloseTo(s.sum, 9);
    }
  });
}

/** A range of whole buckets of `seconds` around the seeded days, inside `built`. */
function alignedRange(seconds: number): DataRange {
  return {
    from: new Date(binStart(T0 - 30 * DAY_MS, seconds) + seconds * 1000),
    to: new Date(binStart(T0 + 40 * DAY_MS, seconds)),
  };
}
const BUILT: DataRange = { from: new Date(T0 - 70 * DAY_MS), to: new Date(T0 + 80 * DAY_MS) };

describe('chart rollups built ahead of reads', () => {
  it('stores only widths that are whole hours on the same origin', () => {
    for (const seconds of ROLLUP_BUCKET_SECONDS) expect(seconds % HOUR).toBe(0);
    expect(ORIGIN % (HOUR * 1000)).toBe(0);
  });

  forEachDb((suite) => {
    it('builds every width ahead, so a later read of closed buckets reads no raw rows and answers like them', async () => {
      const company = await insertCompany(suite.db, { name: 'Ahead' });
      const id = await seededDevice(suite.db, company.id);
      const result = await withTenant(suite.db, company.id, (tx) =>
        buildRollupsAhead(tx, company.id, id, FIELDS, BUILT, { now: NOW }),
      );
      expect(result.rawHours).toBe(150 * 24);
      const stored = await storedRows(suite.db, id);
      expect(result.stored).toBe(stored);
      for (const seconds of ROLLUP_BUCKET_SECONDS) {
        const range = alignedRange(seconds);
        const { buckets, rawReads } = await readCountingRaw(suite.db, company.id, id, range, seconds);
        expect(rawReads, `raw reads at ${seconds} s`).toEqual([]);
        expect(buckets.length, `${seconds} s`).toBeGreaterThan(0);
        expectSameBuckets(
          buckets,
          await readDeviceDataBuckets(suite.db, company.id, id, range, FIELDS, seconds),
        );
      }
      // The reads stored nothing: everything they used was there.
      expect(await storedRows(suite.db, id)).toBe(stored);
      // Built again: the hours are checked, nothing is read raw or stored twice.
      const again = await withTenant(suite.db, company.id, (tx) =>
        buildRollupsAhead(tx, company.id, id, FIELDS, BUILT, { now: NOW }),
      );
      expect(again).toEqual({ rawHours: 0, stored: 0 });
    });

    it('late data: the read after it is still right, and the next build restores every width', async () => {
      const company = await insertCompany(suite.db, { name: 'Late ahead' });
      const id = await seededDevice(suite.db, company.id);
      await withTenant(suite.db, company.id, (tx) =>
        buildRollupsAhead(tx, company.id, id, FIELDS, BUILT, { now: NOW }),
      );
      const late = new Date(T0 + 4 * DAY_MS + 7 * 3_600_000 + 5 * 60_000);
      await suite.db.query(
        `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
         VALUES ($1, $2, $3, '{"temperature": 123.25, "humidity": 1}', 'late')`,
        [id, company.id, late],
      );
      const week = alignedRange(7 * 24 * HOUR);
      const first = await readCountingRaw(suite.db, company.id, id, week, 7 * 24 * HOUR);
      expect(first.rawReads.length).toBe(1);
      expectSameBuckets(
        first.buckets,
        await readDeviceDataBuckets(suite.db, company.id, id, week, FIELDS, 7 * 24 * HOUR),
      );
      expect(Math.max(...first.buckets.map((b) => b.fields.temperature!.max ?? 0))).toBe(123.25);
      // The builder rebuilds the invalidated hour from the raw rows, and the coarse buckets from the hours.
      const rebuilt = await withTenant(suite.db, company.id, (tx) =>
        buildRollupsAhead(tx, company.id, id, FIELDS, BUILT, { now: NOW }),
      );
      expect(rebuilt.rawHours).toBe(1);
      for (const seconds of [HOUR, 6 * HOUR, 24 * HOUR, 30 * 24 * HOUR]) {
        const range = alignedRange(seconds);
        const { buckets, rawReads } = await readCountingRaw(suite.db, company.id, id, range, seconds);
        expect(rawReads, `${seconds} s`).toEqual([]);
        expectSameBuckets(
          buckets,
          await readDeviceDataBuckets(suite.db, company.id, id, range, FIELDS, seconds),
        );
      }
    });

    it('derives the coarse widths over hours that a chart read stored, without reading raw rows', async () => {
      const company = await insertCompany(suite.db, { name: 'Hours by a read' });
      const id = await seededDevice(suite.db, company.id);
      const hours = { from: new Date(T0), to: new Date(T0 + 14 * DAY_MS) };
      await readCountingRaw(suite.db, company.id, id, hours, HOUR);
      const result = await withTenant(suite.db, company.id, (tx) =>
        buildRollupsAhead(tx, company.id, id, FIELDS, hours, { now: NOW }),
      );
      expect(result.rawHours).toBe(0);
      expect(result.stored).toBeGreaterThan(0);
      const days = await readCountingRaw(suite.db, company.id, id, hours, 24 * HOUR);
      expect(days.rawReads).toEqual([]);
      expectSameBuckets(
        days.buckets,
        await readDeviceDataBuckets(suite.db, company.id, id, hours, FIELDS, 24 * HOUR),
      );
      // Everything inside is stored now: a second call finds it so and stores nothing.
      const again = await withTenant(suite.db, company.id, (tx) =>
        buildRollupsAhead(tx, company.id, id, FIELDS, hours, { now: NOW }),
      );
      expect(again).toEqual({ rawHours: 0, stored: 0 });
    });

    it('two builders at once store every bucket once, and the second reads nothing raw', async () => {
      const company = await insertCompany(suite.db, { name: 'Twice' });
      const id = await seededDevice(suite.db, company.id);
      const build = () =>
        withTenant(suite.db, company.id, (tx) =>
          buildRollupsAhead(tx, company.id, id, FIELDS, BUILT, { now: NOW }),
        );
      const results = await Promise.all([build(), build()]);
      const stored = await storedRows(suite.db, id);
      expect(results.map((r) => r.stored).sort((a, b) => a - b)).toEqual([0, stored]);
      expect(results.map((r) => r.rawHours).sort((a, b) => a - b)).toEqual([0, 150 * 24]);
    });
  });

  // The service walks every device of its database: one database per service test.
  forEachDb((suite) => {
    it('the background service backfills history, then a first chart read reads only the open tail raw', async () => {
      const company = await insertCompany(suite.db, { name: 'Service' });
      const id = await seededDevice(suite.db, company.id);
      // "Now" is 20 minutes after the last row: the newest buckets are still open.
      const now = new Date(T0 + 10 * DAY_MS + 10 * 60_000);
      const builder = await untilFirstBackfillPass({
        db: suite.db,
        log: quietLog,
        now: () => now,
        chunkMs: 3 * DAY_MS,
        horizonMs: 60 * DAY_MS,
        minPauseMs: 1,
        pauseFactor: 0,
      });
      const progress = builder.progress();
      expect(progress.recentPasses).toBeGreaterThan(0);
      expect(progress.failures).toBe(0);
      // Three-day chunks from the open hour back to the first row.
      expect(progress.chunks).toBe(4);
      const closedEnd = binStart(now.getTime() - 30 * 60_000, 6 * HOUR);
      const range = { from: new Date(T0), to: new Date(T0 + 10 * DAY_MS + 60 * 60_000) };
      const { buckets, rawReads } = await readCountingRaw(suite.db, company.id, id, range, 6 * HOUR, now);
      // One raw read, of the buckets not closed yet.
      expect(rawReads).toEqual([[closedEnd, range.to.getTime()]]);
      expectSameBuckets(
        buckets,
        await readDeviceDataBuckets(suite.db, company.id, id, range, FIELDS, 6 * HOUR),
      );
    });
  });

  // The service walks every device of its database: one database per service test.
  forEachDb((suite) => {
    it('the timer builds the hours closed since its last pass for recently active devices', async () => {
      const company = await insertCompany(suite.db, { name: 'Timer' });
      const id = await seededDevice(suite.db, company.id);
      let now = new Date(T0 + 10 * DAY_MS + 10 * 60_000);
      const lastHour = async () => {
        const { rows } = await suite.db.query<{ last: Date; n: number }>(
          `SELECT bucket AS last, count AS n FROM device_data_rollups
            WHERE device_id = $1 AND bucket_seconds = 3600 AND field = ''
            ORDER BY bucket DESC LIMIT 1`,
          [id],
        );
        return [rows[0]?.last.getTime(), rows[0]?.n];
      };
      const builder = startRollupBuilder({
        db: suite.db,
        log: quietLog,
        now: () => now,
        recentIntervalMs: 30,
        // The backfill covers the last hour only and then waits for hours: what follows is the timer's.
        horizonMs: 3_600_000,
        minPauseMs: 1,
      });
      try {
        await vi.waitFor(() => expect(builder.progress().backfillPasses).toBeGreaterThan(0), {
          timeout: 20_000,
          interval: 20,
        });
        // 23:00 of the last day ends at midnight, less than 30 minutes before "now": still open.
        expect(await lastHour()).toEqual([T0 + 9 * DAY_MS + 22 * 3_600_000, 6]);
        now = new Date(T0 + 10 * DAY_MS + 2 * 3_600_000 + 10 * 60_000);
        // Midnight to 01:00 closed 70 minutes before the new "now": built, empty (no rows after midnight).
        await vi.waitFor(async () => expect(await lastHour()).toEqual([T0 + 10 * DAY_MS, 0]), {
          timeout: 20_000,
          interval: 20,
        });
        expect(builder.progress().backfillPasses).toBe(1);
      } finally {
        await builder.stop();
      }
      const { rows } = await suite.db.query<{ n: number }>(
        `SELECT count FROM device_data_rollups
          WHERE device_id = $1 AND bucket_seconds = 3600 AND field = '' AND bucket = $2`,
        [id, new Date(T0 + 9 * DAY_MS + 23 * 3_600_000)],
      );
      expect(rows).toEqual([{ count: 6 }]);
    });
  });

  forEachDb((suite) => {
    it('a backfill progresses newest first and stops where it is when the service stops', async () => {
      const company = await insertCompany(suite.db, { name: 'Stop' });
      const id = await seededDevice(suite.db, company.id, { days: 40 });
      const now = new Date(T0 + 40 * DAY_MS + 2 * 3_600_000);
      const builder = startRollupBuilder({
        db: suite.db,
        log: quietLog,
        now: () => now,
        chunkMs: DAY_MS,
        horizonMs: 365 * DAY_MS,
        minPauseMs: 40,
      });
      let stoppedAt: ReturnType<typeof builder.progress>;
      try {
        await vi.waitFor(() => expect(builder.progress().chunks).toBeGreaterThanOrEqual(3), {
          timeout: 20_000,
          interval: 10,
        });
      } finally {
        await builder.stop();
        stoppedAt = builder.progress();
      }
      // 40 days at one day per chunk: stopped well before the end, and nothing happens after stop.
      expect(stoppedAt.chunks).toBeLessThan(40);
      expect(stoppedAt.backfillPasses).toBe(0);
      const stored = await storedRows(suite.db, id);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await storedRows(suite.db, id)).toBe(stored);
      expect(builder.progress()).toEqual(stoppedAt);
      // Newest first: the last days are built, the first ones not yet.
      const { rows } = await suite.db.query<{ first: Date; last: Date }>(
        `SELECT min(bucket) AS first, max(bucket) AS last FROM device_data_rollups
          WHERE device_id = $1 AND bucket_seconds = 3600`,
        [id],
      );
      expect(rows[0]!.last.getTime()).toBe(T0 + 40 * DAY_MS);
      expect(rows[0]!.first.getTime()).toBeGreaterThan(T0 + 30 * DAY_MS);
      // ...and more than the timer's pass over the last hours built.
      expect(rows[0]!.first.getTime()).toBeLessThan(T0 + 39 * DAY_MS);
    });
  });

  // The service walks every device of its database: one database per service test.
  forEachDb((suite) => {
    it('builds each device as its own company: tenants see only their own rollups', async () => {
      const a = await insertCompany(suite.db, { name: 'Tenant A' });
      const b = await insertCompany(suite.db, { name: 'Tenant B' });
      const ofA = await seededDevice(suite.db, a.id, { days: 3 });
      const ofB = await seededDevice(suite.db, b.id, { days: 3 });
      const now = new Date(T0 + 20 * DAY_MS);
      const logged: [object, string][] = [];
      await untilFirstBackfillPass({
        db: suite.db,
        log: { info: (details, message) => logged.push([details, message]), warn: quietLog.warn },
        now: () => now,
        horizonMs: 30 * DAY_MS,
        minPauseMs: 1,
        pauseFactor: 0,
      });
      // The end of the pass is logged with its progress.
      expect(logged).toContainEqual([
        expect.objectContaining({ backfillPasses: 1, failures: 0 }),
        'rollup builder progress',
      ]);
      const { rows } = await suite.db.query<{ device_id: number; company_id: number }>(
        `SELECT DISTINCT device_id::int, company_id::int FROM device_data_rollups
          WHERE device_id = ANY($1::bigint[]) ORDER BY device_id`,
        [[ofA, ofB]],
      );
      expect(rows).toEqual([
        { device_id: ofA, company_id: a.id },
        { device_id: ofB, company_id: b.id },
      ]);
      const seenByA = await withTenant(suite.db, a.id, (tx) =>
        tx.query<{ device_id: number }>(
          'SELECT DISTINCT device_id::int FROM device_data_rollups WHERE device_id = ANY($1::bigint[])',
          [[ofA, ofB]],
        ),
      );
      expect(seenByA.rows).toEqual([{ device_id: ofA }]);
      // A's chart is built and read without raw rows; B's device read as A shows nothing of B's.
      const range = { from: new Date(T0), to: new Date(T0 + 3 * DAY_MS) };
      const asA = await readCountingRaw(suite.db, a.id, ofB, range, 6 * HOUR, now);
      expect(asA.buckets).toEqual([]);
      const mine = await readCountingRaw(suite.db, a.id, ofA, range, 6 * HOUR, now);
      expect(mine.rawReads).toEqual([]);
      expect(mine.buckets.length).toBe(12);
    });
  });

  forEachDb((suite) => {
    it('two rollup builder services at once store every bucket once between them', async () => {
      const company = await insertCompany(suite.db, { name: 'Two services' });
      const ids = [
        await seededDevice(suite.db, company.id),
        await seededDevice(suite.db, company.id, { days: 20 }),
      ];
      const now = new Date(T0 + 21 * DAY_MS);
      const options = {
        db: suite.db,
        log: quietLog,
        now: () => now,
        chunkMs: 2 * DAY_MS,
        horizonMs: 60 * DAY_MS,
        minPauseMs: 1,
        pauseFactor: 0,
      };
      const builders = [startRollupBuilder(options), startRollupBuilder(options)];
      try {
        await vi.waitFor(
          () => {
            for (const builder of builders) expect(builder.progress().backfillPasses).toBeGreaterThan(0);
          },
          { timeout: 30_000, interval: 50 },
        );
      } finally {
        await Promise.all(builders.map((builder) => builder.stop()));
      }
      const stored = (await storedRows(suite.db, ids[0]!)) + (await storedRows(suite.db, ids[1]!));
      const [a, b] = builders.map((builder) => builder.progress());
      expect(a!.failures + b!.failures).toBe(0);
      // Each row was stored by exactly one of them (a second insert of a row would be a conflict, not counted).
      expect(a!.stored + b!.stored).toBe(stored);
      // The same buckets as one builder alone: nothing left to build, and charts equal the raw rows.
      for (const id of ids) {
        const again = await withTenant(suite.db, company.id, (tx) =>
          buildRollupsAhead(tx, company.id, id, FIELDS, { from: new Date(T0), to: now }, { now }),
        );
        expect(again).toEqual({ rawHours: 0, stored: 0 });
        const range = { from: new Date(T0), to: new Date(T0 + 20 * DAY_MS) };
        const { buckets, rawReads } = await readCountingRaw(suite.db, company.id, id, range, 6 * HOUR, now);
        expect(rawReads).toEqual([]);
        expectSameBuckets(
          buckets,
          await readDeviceDataBuckets(suite.db, company.id, id, range, FIELDS, 6 * HOUR),
        );
      }
    });
  });

  forEachDb(
    (suite) => {
      it('a background build does not wait for a device another builder holds', async () => {
        const company = await insertCompany(suite.db, { name: 'Busy' });
        const id = await seededDevice(suite.db, company.id, { days: 2 });
        const range = { from: new Date(T0), to: new Date(T0 + 2 * DAY_MS) };
        let release!: () => void;
        const holding = new Promise<void>((resolve) => {
          release = resolve;
        });
        let started!: () => void;
        const hasStarted = new Promise<void>((resolve) => {
          started = resolve;
        });
        // A first builder in its transaction, holding the device's lock.
        const first = withTenant(suite.db, company.id, async (tx) => {
          const result = await buildRollupsAhead(tx, company.id, id, FIELDS, range, { now: NOW });
          started();
          await holding;
          return result;
        });
        await hasStarted;
        const second = await withTenant(suite.db, company.id, (tx) =>
          buildRollupsAhead(tx, company.id, id, FIELDS, range, { now: NOW, wait: false }),
        );
        expect(second).toEqual({ rawHours: 0, stored: 0, busy: true });
        release();
        const built = await first;
        expect(built.rawHours).toBe(48);
        expect(await storedRows(suite.db, id)).toBe(built.stored);
      });
    },
    { kinds: ['postgres'] },
  );
});
