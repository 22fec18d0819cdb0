/**
 * The narrow device data layout (migration 0043): values come back as they were sent, aggregates are
 * what the JSONB rows gave, and a stored reading costs at most 40 bytes (issue #29) with its rollups.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../db';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { insertCompany } from './companies';
import { readDeviceData, readLastDeviceRecord } from './device-data';
import { readDeviceDataBuckets } from './device-data-buckets';
import { buildRollupsAhead } from './device-data-rollups-ahead';
import { type DeviceDataRow, insertDeviceDataRows, upsertDerivedData } from './device-data-writes';
import { splitReadingValues } from './device-reading-values';
import { DeviceSeriesCache, type SeriesFields } from './device-series-cache';

const STEP_MS = 10 * 60_000;

async function device(db: Db, companyId: number): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO devices (company_id, name) VALUES ($1, 'layout') RETURNING id::int AS id`,
    [companyId],
  );
  return rows[0]!.id;
}

const row = (
  deviceId: number,
  companyId: number,
  at: number,
  data: Record<string, unknown>,
): DeviceDataRow => ({
  device_id: deviceId,
  company_id: companyId,
  created_at: new Date(at).toISOString(),
  data,
  latitude: null,
  longitude: null,
  metalabel: null,
  fcnt: null,
  message_id: String(at),
});

/**
 * `n` 10-minute uplinks from `from` with four sensor values and message ids as tests/bench/storage.bench.ts
 * stores them (the uplink's number: the message id is stored and indexed as text, so its length counts).
 */
function uplinks(deviceId: number, companyId: number, from: number, n: number): DeviceDataRow[] {
  return Array.from({ length: n }, (_, g) => ({
    ...row(deviceId, companyId, from + g * STEP_MS, {
      temperature: Math.round((10 + 15 * Math.sin((g / 144) * 6.283)) * 100) / 100,
      humidity: 50 + (g % 40),
      battery_level: Math.round((100 - g / 600) * 10) / 10,
      wind_speed_kmh: (g * 7919) % 60,
    }),
    message_id: String(g),
  }));
}

async function bytes(db: Db): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT (pg_total_relation_size('device_readings') + pg_total_relation_size('device_rollups')
             + pg_total_relation_size('device_series'))::text AS n`,
  );
  return Number(rows[0]!.n);
}

describe('narrow device data (migration 0043)', () => {
  forEachDb((suite) => {
    it('gives back every value as it was sent: float4 and float8 rows, booleans, text, long numbers', async () => {
      const company = await insertCompany(suite.db, { name: 'Layout' });
      const id = await device(suite.db, company.id);
      const t0 = Date.parse('2025-06-01T00:00:00Z');
      const sent = [
        { temperature: 21.37, humidity: 50 },
        // A water meter needs more than float4's 7 digits: the row keeps float8.
        { temperature: 21.4, meter: 1234567.891, pump: true },
        { temperature: 0.1 + 0.2, status: 'ok', nothing: null, nested: { a: [1, 2] }, counter: 2 ** 60 },
        { pump: false, tiny: 1e-40, huge: 1e200 },
      ];
      await insertDeviceDataRows(
        suite.db,
        sent.map((data, i) => row(id, company.id, t0 + i * STEP_MS, data)),
      );
      const range = { from: new Date(t0), to: new Date(t0 + sent.length * STEP_MS) };
      const points = await readDeviceData(suite.db, company.id, id, range, null);
      expect(points.map((p) => p.data)).toEqual(sent);
      const { rows } = await suite.db.query<{ narrow: boolean; wide: boolean }>(
        `SELECT narrow IS NOT NULL AS narrow, wide IS NOT NULL AS wide FROM device_readings ORDER BY created_at`,
      );
      expect(rows).toEqual([
        { narrow: true, wide: false },
        { narrow: false, wide: true },
        { narrow: false, wide: true },
        { narrow: false, wide: true },
      ]);
      const last = await readLastDeviceRecord(suite.db, company.id, id, ['pump', 'tiny']);
      expect(last?.data).toEqual({ pump: false, tiny: 1e-40 });
    });

    it('splits values in the writer exactly as the SQL function device_reading_values does', async () => {
      const fields = ['a', 'b', 'c', 'd', 'e'];
      const positions = new Map(fields.map((name, i) => [name, i]));
      const samples: Record<string, unknown>[] = [
        { a: 21.37, b: 50, c: 99.3 },
        { a: 0, b: -0, e: 123456 },
        { a: 1234567, b: 0.1 + 0.2, c: 2 ** 60, d: 1e-40, e: 1e301 },
        { a: true, b: false, text: 'x', nothing: null, obj: { k: [1] } },
        { c: 1e-30, d: 1e30, e: 1.00001e-30 },
        { a: 9.99999e29, b: 1.234567, c: -3.4e38, d: 16777217, e: 0.000123457 },
        { unknown: 5, a: undefined, b: Number.NaN },
        {},
      ];
      for (const data of samples) {
        const { rows } = await suite.db.query<{ narrow: string | null; wide: string | null; extra: unknown }>(
          `SELECT narrow::text, wide::text, extra FROM device_reading_values($1::text[], $2::jsonb)`,
          [fields, JSON.stringify(data)],
        );
        const split = splitReadingValues(positions, data);
        const { rows: ours } = await suite.db.query<{
          narrow: string | null;
          wide: string | null;
          extra: unknown;
        }>(`SELECT $1::real[]::text AS narrow, $2::float8[]::text AS wide, $3::jsonb AS extra`, [
          split.narrow,
          split.wide,
          split.extra,
        ]);
        expect(ours[0], JSON.stringify(data)).toEqual(rows[0]);
      }
    });

    it('writes with a cached field list, and asks again for a new field', async () => {
      const company = await insertCompany(suite.db, { name: 'Cache' });
      const id = await device(suite.db, company.id);
      const t0 = Date.parse('2025-06-01T00:00:00Z');
      const cache = new DeviceSeriesCache();
      const write = async (i: number, data: Record<string, unknown>) => {
        const learned = new Map<string, SeriesFields>();
        await insertDeviceDataRows(suite.db, [row(id, company.id, t0 + i * STEP_MS, data)], {
          cache,
          learned,
        });
        cache.remember(learned);
        return learned.size;
      };
      expect(await write(0, { t: 21.5 })).toBe(1);
      expect(await write(1, { t: 22.5 })).toBe(0);
      expect(await write(2, { h: 40, t: 23.5 })).toBe(1);
      expect(await write(3, { h: 41, t: 24.5, s: 'text needs no position' })).toBe(0);
      const range = { from: new Date(t0), to: new Date(t0 + 4 * STEP_MS) };
      const points = await readDeviceData(suite.db, company.id, id, range, null);
      expect(points.map((p) => p.data)).toEqual([
        { t: 21.5 },
        { t: 22.5 },
        { h: 40, t: 23.5 },
        { h: 41, t: 24.5, s: 'text needs no position' },
      ]);
    });

    it('leaves out the rows of a cached series whose device was deleted meanwhile', async () => {
      const company = await insertCompany(suite.db, { name: 'Gone' });
      const id = await device(suite.db, company.id);
      const t0 = Date.parse('2025-06-01T00:00:00Z');
      const cache = new DeviceSeriesCache();
      const learned = new Map<string, SeriesFields>();
      await insertDeviceDataRows(suite.db, [row(id, company.id, t0, { t: 1 })], { cache, learned });
      cache.remember(learned);
      await suite.db.query('DELETE FROM devices WHERE id = $1', [id]);
      const stored = await insertDeviceDataRows(suite.db, [row(id, company.id, t0 + STEP_MS, { t: 2 })], {
        cache,
      });
      expect(stored).toBe(0);
      const { rows } = await suite.db.query('SELECT 1 FROM device_data WHERE device_id = $1', [id]);
      expect(rows).toEqual([]);
    });

    it('aggregates float4 values as the decimals sent, booleans as 1 and 0, text as nothing', async () => {
      const company = await insertCompany(suite.db, { name: 'Aggregates' });
      const id = await device(suite.db, company.id);
      const t0 = Date.parse('2025-06-01T00:00:00Z');
      await insertDeviceDataRows(suite.db, [
        row(id, company.id, t0, { t: 21.37, on: true }),
        row(id, company.id, t0 + STEP_MS, { t: 21.37, on: false }),
        row(id, company.id, t0 + 2 * STEP_MS, { t: 'n/a', on: true }),
      ]);
      const range = { from: new Date(t0), to: new Date(t0 + 3600_000) };
      const [bucket] = await readDeviceDataBuckets(suite.db, company.id, id, range, ['t', 'on', 'x'], 3600);
      expect(bucket!.count).toBe(3);
      expect(bucket!.fields.t).toEqual({ min: 21.37, max: 21.37, avg: 21.37, sum: 42.74, count: 2 });
      expect(bucket!.fields.on).toMatchObject({ min: 0, max: 1, sum: 2, count: 3 });
      expect(bucket!.fields.x).toEqual({ min: null, max: null, avg: null, sum: null, count: 0 });
    });

    it('merges a virtual field into a stored row and keeps its earlier values', async () => {
      const company = await insertCompany(suite.db, { name: 'Merge' });
      const id = await device(suite.db, company.id);
      const at = '2025-06-01T00:00:00.000Z';
      await insertDeviceDataRows(suite.db, [
        { ...row(id, company.id, Date.parse(at), { t: 21.37 }), message_id: 'm' },
      ]);
      const derived = {
        device_id: id,
        company_id: company.id,
        created_at: at,
        message_id: 'm',
        latitude: null,
        longitude: null,
        fcnt: null,
      };
      await upsertDerivedData(suite.db, [{ ...derived, data: { t: 21.37, dew: 12345678.25 } }]);
      const range = { from: new Date(at), to: new Date(Date.parse(at) + 1) };
      const points = await readDeviceData(suite.db, company.id, id, range, null);
      expect(points.map((p) => p.data)).toEqual([{ t: 21.37, dew: 12345678.25 }]);
    });

    it('stores a reading with its hourly rollups in at most 40 bytes', async () => {
      // The storage bench's data set (tests/bench/storage.bench.ts): 10 devices x 30 days of 10-minute
      // uplinks with four fields, each device's uplinks in time order; bytes depend on layout, not load.
      const company = await insertCompany(suite.db, { name: 'Bytes' });
      const perDevice = 30 * 144;
      const end = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
      const from = end - perDevice * STEP_MS;
      await suite.db.exec('VACUUM ANALYZE device_readings, device_rollups, device_series');
      const before = await bytes(suite.db);
      for (let i = 0; i < 10; i++) {
        const id = await device(suite.db, company.id);
        await insertDeviceDataRows(suite.db, uplinks(id, company.id, from, perDevice));
        await withTenant(suite.db, company.id, (tx) =>
          buildRollupsAhead(tx, company.id, id, [], { from: new Date(from), to: new Date(end) }),
        );
      }
      await suite.db.exec('VACUUM ANALYZE device_readings, device_rollups, device_series');
      const perReading = ((await bytes(suite.db)) - before) / (10 * perDevice * 4);
      expect(perReading).toBeGreaterThan(20);
      expect(perReading).toBeLessThanOrEqual(40);
    }, 120_000);
  });
});
