import { describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../db';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { insertCompany } from './companies';
import { type DataBucketRecord, type DataRange, readDeviceDataBuckets } from './device-data-buckets';
import { readDeviceDataBucketsRolledUp } from './device-data-rollups';

const HOUR = 3600;
const T0 = Date.parse('2025-03-01T00:00:00Z');
/** Every bucket of March 2025 is long closed. */
const NOW = new Date('2026-01-01T00:00:00Z');

async function device(q: Queryable, companyId: number): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO devices (company_id, name) VALUES ($1, 'rolled') RETURNING id::int AS id`,
    [companyId],
  );
  return rows[0]!.id;
}

/**
 * Ten days of 10-minute rows with a known shape: a sine temperature, a stepping humidity, a pump as a
 * boolean, now and then a text value where a number is expected, and a gap of a day with no rows at all.
 */
async function seedSeries(q: Queryable, companyId: number, deviceId: number): Promise<void> {
  await q.query(
    `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
     SELECT $1, $2, $3::timestamptz + make_interval(mins => 10 * g),
            jsonb_build_object('temperature', CASE WHEN g % 97 = 0 THEN to_jsonb('n/a'::text)
                                                    ELSE to_jsonb(10 + 15 * sin(g / 144.0 * 6.283)) END,
                               'humidity', 50 + (g % 40), 'pump', g % 3 = 0),
            g::text
       FROM generate_series(0, 10 * 144 - 1) AS g
      WHERE g NOT BETWEEN 4 * 144 AND 5 * 144 - 1`,
    [deviceId, companyId, new Date(T0).toISOString()],
  );
}

async function storedRollups(q: Queryable, deviceId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM device_rollups h JOIN device_series s ON s.id = h.series WHERE s.device_id = $1',
    [deviceId],
  );
  return rows[0]!.n;
}

const FIELDS = ['temperature', 'humidity', 'pump'];

/** Rolled-up answer in its own transaction (as the API runs it), beside the raw answer. */
async function both(
  db: Db,
  companyId: number,
  deviceId: number,
  range: DataRange,
  bucketSeconds: number,
  fields: readonly string[] = FIELDS,
  now: Date = NOW,
): Promise<{ rolled: DataBucketRecord[]; raw: DataBucketRecord[] }> {
  const rolled = await withTenant(db, companyId, (tx) =>
    readDeviceDataBucketsRolledUp(tx, companyId, deviceId, range, fields, bucketSeconds, now),
  );
  const raw = await readDeviceDataBuckets(db, companyId, deviceId, range, fields, bucketSeconds);
  return { rolled, raw };
}

/** Sums differ from the raw query's only by the order of float additions. */
function expectSameBuckets(actual: DataBucketRecord[], expected: DataBucketRecord[]): void {
  expect(actual.map((b) => [b.start.toISOString(), b.count])).toEqual(
    expected.map((b) => [b.start.toISOString(), b.count]),
  );
  actual.forEach((bucket, i) => {
    const want = expected[i]!;
    for (const [field, s] of Object.entries(want.fields)) {
      const got = bucket.fields[field]!;
      expect([got.min, got.max, got.count], `${field} ${bucket.start.toISOString()}`).toEqual([
        s.min,
        s.max,
        s.count,
      ]);
      if (s.sum === null) expect(got.sum).toBeNull();
      else expect(got.sum).toBeCloseTo(s.sum, 9);
    }
  });
}

describe('chart rollups (device_rollups)', () => {
  forEachDb((suite) => {
    it('answers like the raw rows for aligned and unaligned ranges, builds once and then reads the rollups', async () => {
      const company = await insertCompany(suite.db, { name: 'Rollups' });
      const id = await device(suite.db, company.id);
      await seedSeries(suite.db, company.id, id);
      const ranges: DataRange[] = [
        { from: new Date(T0), to: new Date(T0 + 10 * 86_400_000) },
        // Edges inside buckets: partial buckets at both ends come from the raw rows.
        { from: new Date(T0 + 37 * 60_000), to: new Date(T0 + 9 * 86_400_000 + 5 * 3_600_000 + 11 * 60_000) },
      ];
      for (const range of ranges) {
        for (const width of [HOUR, 6 * HOUR, 24 * HOUR]) {
          const first = await both(suite.db, company.id, id, range, width);
          expectSameBuckets(first.rolled, first.raw);
          const stored = await storedRollups(suite.db, id);
          const again = await both(suite.db, company.id, id, range, width);
          expectSameBuckets(again.rolled, again.raw);
          // The second read built nothing new.
          expect(await storedRollups(suite.db, id)).toBe(stored);
        }
      }
      // 10 days of hours and of 6-hour blocks, one row each with every field, the empty day included (an
      // hour or block stored as empty is not rebuilt); the daily buckets are merged from the blocks.
      expect(await storedRollups(suite.db, id)).toBe(240 + 40);
    });

    it('keeps peaks: a spike inside a bucket is its maximum', async () => {
      const company = await insertCompany(suite.db, { name: 'Peaks' });
      const id = await device(suite.db, company.id);
      await seedSeries(suite.db, company.id, id);
      await suite.db.query(
        `UPDATE device_data SET data = data || '{"temperature": 99.5}' WHERE device_id = $1 AND created_at = $2`,
        [id, new Date(T0 + 2 * 86_400_000 + 130 * 60_000)],
      );
      const range = { from: new Date(T0), to: new Date(T0 + 10 * 86_400_000) };
      const { rolled } = await both(suite.db, company.id, id, range, 6 * HOUR);
      const bucket = rolled.find((b) => b.start.getTime() === T0 + 2 * 86_400_000)!;
      expect(bucket.fields.temperature!.max).toBe(99.5);
      expect(Math.max(...rolled.map((b) => b.fields.temperature!.max ?? 0))).toBe(99.5);
    });

    it('invalidates rolled-up buckets when late data arrives, changes or goes', async () => {
      const company = await insertCompany(suite.db, { name: 'Late' });
      const id = await device(suite.db, company.id);
      await seedSeries(suite.db, company.id, id);
      const range = { from: new Date(T0), to: new Date(T0 + 10 * 86_400_000) };
      for (const width of [HOUR, 24 * HOUR]) await both(suite.db, company.id, id, range, width);

      // A late uplink into the empty day, with a new peak and a field not seen before.
      const late = new Date(T0 + 4 * 86_400_000 + 7 * 3_600_000 + 5 * 60_000);
      await suite.db.query(
        `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
         VALUES ($1, $2, $3, '{"temperature": 123.25, "humidity": 1, "rain": 4}', 'late')`,
        [id, company.id, late],
      );
      for (const width of [HOUR, 24 * HOUR]) {
        const { rolled, raw } = await both(suite.db, company.id, id, range, width, [...FIELDS, 'rain']);
        expectSameBuckets(rolled, raw);
        const bucket = rolled.find(
          (b) => b.start.getTime() <= late.getTime() && late.getTime() < b.start.getTime() + width * 1000,
        )!;
        expect(bucket.count).toBe(1);
        expect(bucket.fields.temperature!.max).toBe(123.25);
        expect(bucket.fields.rain!.sum).toBe(4);
      }

      // The rules worker merges a virtual field into an existing row.
      await suite.db.query(
        `UPDATE device_data SET data = data || '{"humidity": -40}' WHERE device_id = $1 AND created_at = $2`,
        [id, new Date(T0 + 86_400_000)],
      );
      // A row is deleted.
      await suite.db.query('DELETE FROM device_data WHERE device_id = $1 AND created_at = $2', [
        id,
        new Date(T0 + 6 * 86_400_000 + 3_600_000),
      ]);
      for (const width of [HOUR, 24 * HOUR]) {
        const { rolled, raw } = await both(suite.db, company.id, id, range, width);
        expectSameBuckets(rolled, raw);
        expect(Math.min(...rolled.map((b) => b.fields.humidity!.min ?? 0))).toBe(-40);
      }
    });

    it('after late data reads only the invalidated buckets from the raw rows', async () => {
      const company = await insertCompany(suite.db, { name: 'Runs' });
      const id = await device(suite.db, company.id);
      await seedSeries(suite.db, company.id, id);
      const range = { from: new Date(T0), to: new Date(T0 + 10 * 86_400_000) };
      await both(suite.db, company.id, id, range, 6 * HOUR);
      // Two late rows six days apart.
      for (const late of [T0 + 2 * 86_400_000 + 7 * 3_600_000, T0 + 8 * 86_400_000 + 3_600_000]) {
        await suite.db.query(
          `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
           VALUES ($1, $2, $3, '{"temperature": -5}', $4)`,
          [id, company.id, new Date(late), `late ${late}`],
        );
      }
      // Raw reads are the bucketing queries (date_bin over device_readings); params 3 and 4 are their range.
      const rawReads: [string, string][] = [];
      const rolled = await withTenant(suite.db, company.id, (tx) => {
        const recording: Queryable = {
          exec: (sql) => tx.exec(sql),
          query: (sql, params) => {
            if (sql.includes('date_bin') && !sql.includes('device_rollups')) {
              rawReads.push([
                new Date(params?.[2] as Date).toISOString(),
                new Date(params?.[3] as Date).toISOString(),
              ]);
            }
            return tx.query(sql, params);
          },
        };
        return readDeviceDataBucketsRolledUp(recording, company.id, id, range, FIELDS, 6 * HOUR, NOW);
      });
      // Only their two hours are read from the raw rows, not the six days between them.
      const read = (start: number) => [
        new Date(start).toISOString(),
        new Date(start + 3_600_000).toISOString(),
      ];
      expect(rawReads).toEqual([
        read(T0 + 2 * 86_400_000 + 7 * 3_600_000),
        read(T0 + 8 * 86_400_000 + 3_600_000),
      ]);
      expectSameBuckets(
        rolled,
        await readDeviceDataBuckets(suite.db, company.id, id, range, FIELDS, 6 * HOUR),
      );
    });

    it('stores only closed buckets: the open tail is read raw every time', async () => {
      const company = await insertCompany(suite.db, { name: 'Tail' });
      const id = await device(suite.db, company.id);
      await seedSeries(suite.db, company.id, id);
      const range = { from: new Date(T0), to: new Date(T0 + 10 * 86_400_000) };
      // "Now" is 20 minutes after the last row: the last 6-hour bucket is still open.
      const now = new Date(T0 + 10 * 86_400_000 + 10 * 60_000);
      const first = await both(suite.db, company.id, id, range, 6 * HOUR, FIELDS, now);
      expectSameBuckets(first.rolled, first.raw);
      const { rows } = await suite.db.query<{ last: Date }>(
        'SELECT max(h.hour) AS last FROM device_rollups h JOIN device_series s ON s.id = h.series WHERE s.device_id = $1',
        [id],
      );
      // The hours of the closed 6-hour buckets: the last one ends where the open bucket starts.
      expect(rows[0]!.last.getTime()).toBe(T0 + 10 * 86_400_000 - 7 * 3_600_000);
      // A fresh uplink into the open bucket shows at once (no trigger involved: it is not late).
      await suite.db.query(
        `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
         VALUES ($1, $2, $3, '{"temperature": 77}', 'fresh')`,
        [id, company.id, new Date(T0 + 10 * 86_400_000 - 60_000)],
      );
      const { rolled } = await both(suite.db, company.id, id, range, 6 * HOUR, FIELDS, now);
      expect(rolled.at(-1)!.fields.temperature!.max).toBe(77);
    });

    it('keeps each company to its own rows and rollups, also after a reassignment', async () => {
      const a = await insertCompany(suite.db, { name: 'Owner before' });
      const b = await insertCompany(suite.db, { name: 'Owner after' });
      const id = await device(suite.db, a.id);
      await seedSeries(suite.db, a.id, id);
      const range = { from: new Date(T0), to: new Date(T0 + 10 * 86_400_000) };
      const before = await both(suite.db, a.id, id, range, 6 * HOUR);
      expect(before.rolled.length).toBeGreaterThan(30);
      await suite.db.query('UPDATE devices SET company_id = $1 WHERE id = $2', [b.id, id]);
      const after = await both(suite.db, b.id, id, range, 6 * HOUR);
      expect(after.rolled).toEqual([]);
      // B recorded nothing, so it has no series and its read stored nothing; A's rollups stay A's and
      // invisible to B.
      const visible = await withTenant(suite.db, b.id, (tx) =>
        tx.query<{ company_id: number; n: number }>(
          `SELECT s.company_id::int, count(*)::int AS n FROM device_rollups h
             JOIN device_series s ON s.id = h.series WHERE s.device_id = $1 GROUP BY s.company_id`,
          [id],
        ),
      );
      expect(visible.rows).toEqual([]);
      expect(await storedRollups(suite.db, id)).toBe(240 + 40);
      const forA = await both(suite.db, a.id, id, range, 6 * HOUR);
      expectSameBuckets(forA.rolled, before.raw);
    });
  });
});

describe('chart rollups under concurrency (PostgreSQL)', () => {
  forEachDb(
    (suite) => {
      it('a late row committed while a builder runs is not lost', async () => {
        const company = await insertCompany(suite.db, { name: 'Race' });
        const id = await device(suite.db, company.id);
        await seedSeries(suite.db, company.id, id);
        const range = { from: new Date(T0), to: new Date(T0 + 10 * 86_400_000) };
        let release!: () => void;
        const holding = new Promise<void>((resolve) => {
          release = resolve;
        });
        let built!: () => void;
        const hasBuilt = new Promise<void>((resolve) => {
          built = resolve;
        });
        // The builder stores the buckets and keeps its transaction open.
        const builder = withTenant(suite.db, company.id, async (tx) => {
          await readDeviceDataBucketsRolledUp(tx, company.id, id, range, FIELDS, 6 * HOUR, NOW);
          built();
          await holding;
        });
        await hasBuilt;
        // A late row in a bucket the builder just stored: its trigger waits for the builder's commit.
        const late = suite.db.query(
          `INSERT INTO device_data (device_id, company_id, created_at, data, message_id)
           VALUES ($1, $2, $3, '{"temperature": 500}', 'race')`,
          [id, company.id, new Date(T0 + 3 * 86_400_000 + 60_000)],
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        release();
        await builder;
        await late;
        const { rolled, raw } = await both(suite.db, company.id, id, range, 6 * HOUR);
        expectSameBuckets(rolled, raw);
        expect(Math.max(...rolled.map((b) => b.fields.temperature!.max ?? 0))).toBe(500);
      });
    },
    { kinds: ['postgres'] },
  );
});
