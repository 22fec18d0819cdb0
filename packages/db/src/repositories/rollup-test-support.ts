/** Devices with seeded rows and what the rollup tests read back (device-data-rollup*.test.ts). */
import { expect, vi } from 'vitest';
import type { Db, Queryable } from '../db';
import { type RollupBuilder, type RollupBuilderOptions, startRollupBuilder } from '../rollup-builder';
import { withTenant } from '../tenant';
import { BUCKET_ORIGIN, type DataBucketRecord, type DataRange } from './device-data-buckets';
import { readDeviceDataBucketsRolledUp } from './device-data-rollups';

export const HOUR = 3600;
export const DAY_MS = 86_400_000;
export const T0 = Date.parse('2025-03-01T00:00:00Z');
/** Every bucket around March 2025 is long closed. */
export const NOW = new Date('2026-01-01T00:00:00Z');
export const FIELDS = ['temperature', 'humidity', 'pump'];
export const ORIGIN = Date.parse(BUCKET_ORIGIN);
export const binStart = (t: number, seconds: number) =>
  ORIGIN + Math.floor((t - ORIGIN) / (seconds * 1000)) * seconds * 1000;
export const quietLog = { info: () => undefined, warn: () => undefined };

/** A device with `days` of 10-minute rows from `start` (text now and then, booleans, a gap on day 4). */
export async function seededDevice(
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
    // Set-based (migration 0043): the device_data view writes row by row.
    `SELECT device_data_store(jsonb_agg(x)) FROM (
     SELECT $1::bigint AS device_id, $2::bigint AS company_id,
            $3::timestamptz + make_interval(mins => 10 * g) AS created_at,
            jsonb_build_object('temperature', CASE WHEN g % 97 = 0 THEN to_jsonb('n/a'::text)
                                                    ELSE to_jsonb(10 + 15 * sin(g / 144.0 * 6.283)) END,
                               'humidity', 50 + (g % 40), 'pump', g % 3 = 0) AS data,
            g::text AS message_id
       FROM generate_series(0, $4::int * 144 - 1) AS g
      WHERE g NOT BETWEEN 4 * 144 AND 5 * 144 - 1) x`,
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

/** The device's stored hours (its 6-hour blocks, migration 0043, not counted). */
export async function storedRows(db: Db, deviceId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM device_rollups h JOIN device_series s ON s.id = h.series
      WHERE s.device_id = $1 AND h.hours = 1`,
    [deviceId],
  );
  return rows[0]!.n;
}

/**
 * The API's read in its tenant transaction, recording every raw bucketing query (date_bin over device_data)
 * with its range (params 3 and 4).
 */
export async function readCountingRaw(
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
        if (sql.includes('date_bin') && !sql.includes('device_rollups')) {
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
export async function untilFirstBackfillPass(options: RollupBuilderOptions): Promise<RollupBuilder> {
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

export function expectSameBuckets(actual: DataBucketRecord[], expected: DataBucketRecord[]): void {
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
