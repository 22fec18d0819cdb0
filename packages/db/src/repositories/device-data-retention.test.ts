import { describe, expect, it } from 'vitest';
import type { Db } from '../db';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { insertCompany } from './deletion-test-support';
import { type DataRange, readDeviceDataBuckets } from './device-data-buckets';
import { purgeExpiredDeviceData } from './device-data-retention';
import { readDeviceDataBucketsRolledUp } from './device-data-rollups';
import { binStart, DAY_MS, expectSameBuckets, FIELDS, NOW, seededDevice } from './rollup-test-support';

const NOW_MS = NOW.getTime();

async function setRetention(
  db: Db,
  companyId: number,
  retention: { data?: number | null; rollups?: number | null; cap?: number },
) {
  await db.query(
    `UPDATE companies SET data_retention_days = $2, rollup_retention_days = $3, limits = $4 WHERE id = $1`,
    [
      companyId,
      retention.data ?? null,
      retention.rollups ?? null,
      JSON.stringify(retention.cap === undefined ? {} : { max_data_retention_days: retention.cap }),
    ],
  );
}

async function oldestPoint(db: Db, deviceId: number): Promise<number | null> {
  const { rows } = await db.query<{ t: Date | null }>(
    'SELECT min(created_at) AS t FROM device_data WHERE device_id = $1',
    [deviceId],
  );
  return rows[0]?.t ? rows[0].t.getTime() : null;
}

/** A chart as the API reads it (rollups where closed, raw rows elsewhere). */
function chart(db: Db, companyId: number, deviceId: number, range: DataRange, seconds: number) {
  return withTenant(db, companyId, (tx) =>
    readDeviceDataBucketsRolledUp(tx, companyId, deviceId, range, FIELDS, seconds, NOW),
  );
}

/** The same buckets from the raw rows alone, before any retention ran. */
function rawChart(db: Db, companyId: number, deviceId: number, range: DataRange, seconds: number) {
  return readDeviceDataBuckets(db, companyId, deviceId, range, FIELDS, seconds);
}

/** Charts of a year (daily and 30-day buckets) and of hours across the cutoff. */
function chartsToCompare(cutoff: number): [DataRange, number][] {
  return [
    // A partial first bucket past the cutoff: its whole hours come from the hourly rollups. (Minutes before
    // the first whole hour are read raw, so a range starting mid-hour loses them once they are deleted.)
    [{ from: new Date(cutoff - 100 * DAY_MS + 7 * 3_600_000), to: NOW }, 86_400],
    [{ from: new Date(cutoff - 50 * DAY_MS + 5 * 3_600_000), to: NOW }, 43_200],
    [{ from: new Date(binStart(NOW_MS - 365 * DAY_MS, 86_400)), to: NOW }, 86_400],
    [{ from: new Date(binStart(NOW_MS - 365 * DAY_MS, 2_592_000)), to: NOW }, 2_592_000],
    [{ from: new Date(cutoff - 20 * DAY_MS), to: new Date(cutoff + 5 * DAY_MS) }, 3600],
  ];
}

forEachDb((suite) => {
  describe('device data retention', () => {
    it('deletes raw points past the retention and keeps a year chart complete', async () => {
      const company = await insertCompany(suite.db, 'Retention');
      const device = await seededDevice(suite.db, company, { start: NOW_MS - 200 * DAY_MS, days: 200 });
      const cutoff = NOW_MS - 90 * DAY_MS;
      const charts = chartsToCompare(cutoff);
      const expected = [];
      for (const [range, seconds] of charts)
        expected.push(await rawChart(suite.db, company, device, range, seconds));
      await setRetention(suite.db, company, { data: 90 });

      const result = await purgeExpiredDeviceData(suite.db, { now: NOW, budgetMs: 60_000 });

      expect(result.complete).toBe(true);
      expect(result.points).toBe(110 * 144 - 144); // 110 days of 10-minute points, but for the gap day
      expect(await oldestPoint(suite.db, device)).toBe(cutoff);
      for (const [i, [range, seconds]] of charts.entries()) {
        expectSameBuckets(await chart(suite.db, company, device, range, seconds), expected[i]!);
      }
      // Nothing old left: the next pass deletes nothing.
      expect(await purgeExpiredDeviceData(suite.db, { now: NOW })).toEqual({
        points: 0,
        rollups: 0,
        complete: true,
      });
    }, 120_000);

    it('keeps the rollups of purged hours when a late row older than the retention arrives', async () => {
      const company = await insertCompany(suite.db, 'Late rows');
      // Data ending now (the triggers compare with the database's now()), 60 days of it.
      const end = binStart(Date.now(), 3600);
      const device = await seededDevice(suite.db, company, { start: end - 60 * DAY_MS, days: 60 });
      await setRetention(suite.db, company, { data: 40 });
      await purgeExpiredDeviceData(suite.db, { now: new Date(end), budgetMs: 60_000 });
      const hour = end - 50 * DAY_MS;
      const count = async () => {
        const { rows } = await suite.db.query<{ n: number }>(
          `SELECT h.rows AS n FROM device_rollups h JOIN device_series s ON s.id = h.series
            WHERE s.device_id = $1 AND h.hour = $2`,
          [device, new Date(hour)],
        );
        return rows[0]?.n;
      };
      expect(await count()).toBe(6);

      await suite.db.query(
        `INSERT INTO device_data (device_id, company_id, created_at, data) VALUES ($1, $2, $3, '{"humidity": 1}')`,
        [device, company, new Date(hour + 5 * 60_000)],
      );

      expect(await count()).toBe(6);
    }, 120_000);

    it('keeps a company without retention whole, and holds the client cap under a longer setting', async () => {
      const unlimited = await insertCompany(suite.db, 'Unlimited');
      const capped = await insertCompany(suite.db, 'Capped');
      const keep = await seededDevice(suite.db, unlimited, { start: NOW_MS - 80 * DAY_MS, days: 80 });
      const trim = await seededDevice(suite.db, capped, { start: NOW_MS - 80 * DAY_MS, days: 80 });
      await setRetention(suite.db, capped, { data: 365, cap: 60 });

      await purgeExpiredDeviceData(suite.db, { now: NOW, budgetMs: 60_000 });

      expect(await oldestPoint(suite.db, keep)).toBe(NOW_MS - 80 * DAY_MS);
      expect(await oldestPoint(suite.db, trim)).toBe(NOW_MS - 60 * DAY_MS);
    }, 120_000);

    it('deletes rollups past the rollup retention, and goes batch by batch within its budget', async () => {
      const company = await insertCompany(suite.db, 'Rollups');
      const device = await seededDevice(suite.db, company, { start: NOW_MS - 70 * DAY_MS, days: 70 });
      await setRetention(suite.db, company, { data: 35, rollups: 40 });
      // Only this company keeps its data for a limited time, so the one batch below is its.
      await suite.db.query(
        `UPDATE companies SET data_retention_days = NULL, rollup_retention_days = NULL, limits = '{}'
          WHERE id <> $1`,
        [company],
      );

      // A clock past the budget after each batch: one batch of at most 500 points (whole hours), then it stops.
      let tick = 0;
      const first = await purgeExpiredDeviceData(suite.db, {
        now: NOW,
        batchSize: 500,
        budgetMs: 1,
        clock: () => tick++ * 10,
      });
      expect(first.complete).toBe(false);
      expect(first.points).toBeGreaterThan(490);
      expect(first.points).toBeLessThanOrEqual(500);

      const rest = await purgeExpiredDeviceData(suite.db, { now: NOW, batchSize: 2000, budgetMs: 60_000 });
      expect(rest.complete).toBe(true);
      expect(await oldestPoint(suite.db, device)).toBe(NOW_MS - 35 * DAY_MS);

      // The rollups were built for the deleted month; a later pass (40 days on) trims them to 40 days.
      const later = new Date(NOW_MS + 31 * DAY_MS);
      const trimmed = await purgeExpiredDeviceData(suite.db, { now: later, budgetMs: 60_000 });
      expect(trimmed.rollups).toBeGreaterThan(0);
      const { rows } = await suite.db.query<{ hour: Date; ended: Date }>(
        `SELECT min(h.hour) AS hour, min(h.hour + interval '1 hour') AS ended
           FROM device_rollups h JOIN device_series s ON s.id = h.series WHERE s.device_id = $1`,
        [device],
      );
      expect(rows[0]!.hour.getTime()).toBe(later.getTime() - 40 * DAY_MS);
      expect(rows[0]!.ended.getTime()).toBeGreaterThan(later.getTime() - 40 * DAY_MS);
    }, 120_000);
  });
});
