/** Closed buckets kept between reads (ClosedBucketCache) and the announcement that drops them (0045, 0046). */
import { describe, expect, it, vi } from 'vitest';
import type { Db, Queryable } from '../db';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { insertCompany } from './companies';
import { type DataBucketRecord, type DataRange, readDeviceDataBuckets } from './device-data-buckets';
import {
  type ClosedBucketCache,
  type KeptBuckets,
  ROLLUPS_CHANGED_CHANNEL,
  readDeviceDataBucketsRolledUp,
} from './device-data-rollups';
import { DAY_MS, expectSameBuckets, FIELDS, HOUR, NOW, seededDevice, T0 } from './rollup-test-support';

/** A cache that keeps everything, and counts what was kept. */
function keepingCache(): ClosedBucketCache & { entries: Map<string, KeptBuckets>; sets: number } {
  const entries = new Map<string, KeptBuckets>();
  return {
    entries,
    sets: 0,
    get: (key) => entries.get(key),
    mark: () => 0,
    set(key, value) {
      this.sets += 1;
      entries.set(key, value);
    },
  };
}

/** The rolled-up read with `cache` in its tenant transaction, counting the statements on device_rollups. */
async function readKept(
  db: Db,
  companyId: number,
  deviceId: number,
  range: DataRange,
  seconds: number,
  cache: ClosedBucketCache,
): Promise<{ buckets: DataBucketRecord[]; rollupReads: number }> {
  let rollupReads = 0;
  const buckets = await withTenant(db, companyId, (tx) => {
    const counting: Queryable = {
      exec: (sql) => tx.exec(sql),
      query: (sql, params) => {
        if (sql.includes('device_rollups')) rollupReads += 1;
        return tx.query(sql, params);
      },
    };
    return readDeviceDataBucketsRolledUp(counting, companyId, deviceId, range, FIELDS, seconds, NOW, cache);
  });
  return { buckets, rollupReads };
}

describe('closed buckets kept between reads', () => {
  forEachDb((suite) => {
    it('answers a chart moving forward, backward and jumping as the raw rows do', async () => {
      const company = await insertCompany(suite.db, { name: 'Kept' });
      const id = await seededDevice(suite.db, company.id, { days: 10 });
      for (const width of [6 * HOUR, 24 * HOUR]) {
        const cache = keepingCache();
        // Six-day windows with edges inside buckets: forward in 6-hour steps, back, then a jump away.
        const starts = [0, 6, 12, 18, 24, 30, 6, 0, 90, 0].map((h) => T0 + h * 3_600_000 + 17 * 60_000);
        for (const start of starts) {
          const range = { from: new Date(start), to: new Date(start + 6 * DAY_MS) };
          const { buckets } = await readKept(suite.db, company.id, id, range, width, cache);
          const raw = await readDeviceDataBuckets(suite.db, company.id, id, range, FIELDS, width);
          expectSameBuckets(buckets, raw);
        }
      }
    });

    it('reads no stored rollups again for the middle once kept', async () => {
      const company = await insertCompany(suite.db, { name: 'Kept twice' });
      const id = await seededDevice(suite.db, company.id, { days: 10 });
      const cache = keepingCache();
      const range = { from: new Date(T0 + 37 * 60_000), to: new Date(T0 + 9 * DAY_MS) };
      const first = await readKept(suite.db, company.id, id, range, 24 * HOUR, cache);
      expect(first.rollupReads).toBeGreaterThan(0);
      expect(cache.sets).toBe(2); // the day buckets, and the whole hours of the partial first day
      const again = await readKept(suite.db, company.id, id, range, 24 * HOUR, cache);
      expect(again.rollupReads).toBe(0);
      expectSameBuckets(again.buckets, first.buckets);
    });

    it('keeps nothing for a device without data', async () => {
      const company = await insertCompany(suite.db, { name: 'Kept empty' });
      const { rows } = await suite.db.query<{ id: number }>(
        `INSERT INTO devices (company_id, name) VALUES ($1, 'silent') RETURNING id::int AS id`,
        [company.id],
      );
      const cache = keepingCache();
      const range = { from: new Date(T0), to: new Date(T0 + 9 * DAY_MS) };
      const { buckets } = await readKept(suite.db, company.id, rows[0]!.id, range, 24 * HOUR, cache);
      expect(buckets).toEqual([]);
      expect(cache.entries.size).toBe(0);
    });

    it("announces a late row's deleted rollups with the device's id, and a deleted device's not", async () => {
      const company = await insertCompany(suite.db, { name: 'Kept announced' });
      const id = await seededDevice(suite.db, company.id, { days: 3 });
      const other = await seededDevice(suite.db, company.id, { days: 3 });
      const range = { from: new Date(T0), to: new Date(T0 + 3 * DAY_MS) };
      for (const device of [id, other])
        await readKept(suite.db, company.id, device, range, 24 * HOUR, keepingCache());
      const heard: string[] = [];
      const unlisten = await suite.db.listen!(ROLLUPS_CHANGED_CHANNEL, (payload) => heard.push(payload));
      try {
        // Its rollups go with its series, which is gone before they are: nothing to announce (every read
        // of a deleted device fails first). Notifications arrive in order, so one for it would come first.
        await suite.db.query('DELETE FROM devices WHERE id = $1', [other]);
        await suite.db.query(
          `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
           VALUES ($1, $2, $3, '{"temperature": 99}', 'late')`,
          [id, company.id, new Date(T0 + DAY_MS + 5 * 60_000)],
        );
        await vi.waitFor(() => expect(heard).toEqual([String(id)]), { timeout: 5_000, interval: 20 });
        // A bucket read again after the announcement holds the late row.
        const { buckets } = await readKept(suite.db, company.id, id, range, 24 * HOUR, keepingCache());
        expect(buckets.find((b) => b.start.getTime() === T0 + DAY_MS)?.fields.temperature?.max).toBe(99);
      } finally {
        await unlisten();
      }
    });

    it('announces late rows in closed hours that have no stored rollup (empty, or not built yet)', async () => {
      const company = await insertCompany(suite.db, { name: 'Kept late' });
      const id = await seededDevice(suite.db, company.id, { days: 3 });
      const heard: string[] = [];
      const unlisten = await suite.db.listen!(ROLLUPS_CHANGED_CHANNEL, (payload) => heard.push(payload));
      try {
        // Day 5 has no rows, so nothing of it is stored: a device uploading what it buffered offline.
        await suite.db.query(
          `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
           VALUES ($1, $2, $3, '{"temperature": 77}', 'buffered')`,
          [id, company.id, new Date(T0 + 5 * DAY_MS + 5 * 60_000)],
        );
        await vi.waitFor(() => expect(heard).toEqual([String(id)]), { timeout: 5_000, interval: 20 });
        // Deleting it, too, changes a closed bucket that no stored rollup stood for.
        await suite.db.query(`DELETE FROM device_data WHERE device_id = $1 AND created_at = $2`, [
          id,
          new Date(T0 + 5 * DAY_MS + 5 * 60_000),
        ]);
        await vi.waitFor(() => expect(heard).toEqual([String(id), String(id)]), {
          timeout: 5_000,
          interval: 20,
        });
      } finally {
        await unlisten();
      }
    });
  });
});
