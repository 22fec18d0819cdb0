import { describe, expect, it } from 'vitest';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { insertCompany } from './companies';
import { type DataRange, readDeviceDataBuckets } from './device-data-buckets';
import { ROLLUP_BUCKET_SECONDS } from './device-data-rollups';
import { buildRollupsAhead } from './device-data-rollups-ahead';
import {
  binStart,
  DAY_MS,
  expectSameBuckets,
  FIELDS,
  HOUR,
  NOW,
  ORIGIN,
  readCountingRaw,
  seededDevice,
  storedRows,
  T0,
} from './rollup-test-support';

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
    it('builds the hours ahead, so a later read at any width of closed buckets reads no raw rows and answers like them', async () => {
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

    it('late data: the read after it is still right and restores the hour, so every width reads stored hours', async () => {
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
      // The read stored the invalidated hour again from the raw rows (read-through): the builder finds it.
      const rebuilt = await withTenant(suite.db, company.id, (tx) =>
        buildRollupsAhead(tx, company.id, id, FIELDS, BUILT, { now: NOW }),
      );
      expect(rebuilt).toEqual({ rawHours: 0, stored: 0 });
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

    it('merges the coarse widths from hours that a chart read stored, without reading raw rows', async () => {
      const company = await insertCompany(suite.db, { name: 'Hours by a read' });
      const id = await seededDevice(suite.db, company.id);
      const hours = { from: new Date(T0), to: new Date(T0 + 14 * DAY_MS) };
      await readCountingRaw(suite.db, company.id, id, hours, HOUR);
      const result = await withTenant(suite.db, company.id, (tx) =>
        buildRollupsAhead(tx, company.id, id, FIELDS, hours, { now: NOW }),
      );
      // Nothing left to build: the hours are there, and no coarser width is stored (migration 0043).
      expect(result).toEqual({ rawHours: 0, stored: 0 });
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
});
