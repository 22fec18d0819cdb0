/** The background rollup builder (rollup-builder.ts): backfill, timer passes, tenants, several builders. */
import { describe, expect, it, vi } from 'vitest';
import { startRollupBuilder } from '../rollup-builder';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { insertCompany } from './companies';
import { readDeviceDataBuckets } from './device-data-buckets';
import { buildRollupsAhead } from './device-data-rollups-ahead';
import {
  binStart,
  DAY_MS,
  expectSameBuckets,
  FIELDS,
  HOUR,
  NOW,
  quietLog,
  readCountingRaw,
  seededDevice,
  storedRows,
  T0,
  untilFirstBackfillPass,
} from './rollup-test-support';

describe('chart rollups built ahead of reads: the background service', () => {
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
      // Three-day chunks from the open block back to the first row.
      expect(progress.chunks).toBe(4);
      const closedEnd = binStart(now.getTime() - 30 * 60_000, 6 * HOUR);
      // Chunks on the 6-hour grid: every closed block is stored, none left to the first read.
      const { rows: blocks } = await suite.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM device_rollups h JOIN device_series s ON s.id = h.series
          WHERE s.device_id = $1 AND h.hours = 6`,
        [id],
      );
      expect(blocks[0]!.n).toBe((closedEnd - T0) / (6 * HOUR * 1000));
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
          `SELECT h.hour AS last, h.rows AS n FROM device_rollups h JOIN device_series s ON s.id = h.series
            WHERE s.device_id = $1 ORDER BY h.hour DESC LIMIT 1`,
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
        `SELECT h.rows AS count FROM device_rollups h JOIN device_series s ON s.id = h.series WHERE s.device_id = $1 AND h.hour = $2`,
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
        `SELECT min(h.hour) AS first, max(h.hour) AS last FROM device_rollups h JOIN device_series s ON s.id = h.series WHERE s.device_id = $1`,
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
        `SELECT DISTINCT s.device_id::int, s.company_id::int FROM device_rollups h JOIN device_series s ON s.id = h.series
          WHERE s.device_id = ANY($1::bigint[]) ORDER BY 1`,
        [[ofA, ofB]],
      );
      expect(rows).toEqual([
        { device_id: ofA, company_id: a.id },
        { device_id: ofB, company_id: b.id },
      ]);
      const seenByA = await withTenant(suite.db, a.id, (tx) =>
        tx.query<{ device_id: number }>(
          'SELECT DISTINCT s.device_id::int FROM device_rollups h JOIN device_series s ON s.id = h.series WHERE s.device_id = ANY($1::bigint[])',
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
