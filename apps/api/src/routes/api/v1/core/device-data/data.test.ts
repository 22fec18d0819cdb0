import { readDeviceDataBuckets } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import {
  createDevice,
  type DataRowFixture,
  insertData,
  setCurrent,
} from '../../../../../test/device-fixtures';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.parse('2026-01-05T00:00:00Z');
/**
 * The long-range tests store weeks of rows on both databases: 3 to 8 s on a quiet machine, and close to the
 * default 30 s while CI runs the other suites beside them.
 */
const LONG_RANGE_TIMEOUT_MS = 120_000;

forEachDb((suite) => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  async function setup() {
    const team = await createTeam(suite.db);
    const device = await createDevice(suite.db, team.company.id);
    const client = new TestClient(app);
    await client.login(team.plain.email, PASSWORD);
    return { team, device, client };
  }

  describe('GET /core/data/{id}', () => {
    it('answers the points of a period with only the requested fields, geo and metalabel', async () => {
      const { team, device, client } = await setup();
      await insertData(suite.db, team.company.id, device.id, [
        {
          at: new Date(T0),
          data: { temperature: 20.5, humidity: 40, secret: 1 },
          latitude: 48.04,
          longitude: 7.57,
        },
        { at: new Date(T0 + HOUR), data: { temperature: 21, humidity: 41 }, metalabel: 'gate' },
        { at: new Date(T0 + 2 * HOUR), data: { humidity: 42 } },
        { at: new Date(T0 + 3 * HOUR), data: { temperature: 99 } },
      ]);
      // tsstart as ISO, tsend as epoch ms; tsend is inclusive.
      const res = await client.get(
        `/api/v1/core/data/${device.id}?data_fields=temperature,humidity&tsstart=${new Date(T0).toISOString()}&tsend=${T0 + 2 * HOUR}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.payload).toMatchObject({
        device_id: device.id,
        data_fields: ['temperature', 'humidity'],
        total: 3,
        downsampled: false,
        bucket_seconds: null,
      });
      expect(res.body.payload.points).toEqual([
        {
          created_at: new Date(T0).toISOString(),
          data: { temperature: 20.5, humidity: 40 },
          geo: [48.04, 7.57],
          metalabel: null,
        },
        {
          created_at: new Date(T0 + HOUR).toISOString(),
          data: { temperature: 21, humidity: 41 },
          geo: null,
          metalabel: 'gate',
        },
        {
          created_at: new Date(T0 + 2 * HOUR).toISOString(),
          data: { humidity: 42 },
          geo: null,
          metalabel: null,
        },
      ]);
      // Without data_fields every field comes back.
      const all = await client.get(`/api/v1/core/data/${device.id}?tsstart=${T0}&tsend=${T0}`);
      expect(all.body.payload.points[0].data).toEqual({ temperature: 20.5, humidity: 40, secret: 1 });
    });

    it('answers only the newest record with last_record=true, and 10001 when there is none', async () => {
      const { team, device, client } = await setup();
      const empty = await client.get(`/api/v1/core/data/${device.id}?last_record=true`);
      expect([empty.status, empty.body.code]).toEqual([404, 10001]);
      await insertData(suite.db, team.company.id, device.id, [
        { at: new Date(T0), data: { temperature: 1 } },
        { at: new Date(T0 + 2 * HOUR), data: { temperature: 3, humidity: 9 } },
        { at: new Date(T0 + HOUR), data: { temperature: 2 } },
      ]);
      const last = await client.get(
        `/api/v1/core/data/${device.id}?last_record=true&data_fields=temperature`,
      );
      expect(last.status).toBe(200);
      expect(last.body.payload.points).toEqual([
        {
          created_at: new Date(T0 + 2 * HOUR).toISOString(),
          data: { temperature: 3 },
          geo: null,
          metalabel: null,
        },
      ]);
      // With a period, the newest record inside it.
      const inside = await client.get(
        `/api/v1/core/data/${device.id}?last_record=true&tsstart=${T0}&tsend=${T0 + HOUR}`,
      );
      expect(inside.body.payload.points[0].data).toEqual({ temperature: 2 });
    });

    it('refuses a bad period with 10002 and bad field lists with 422', async () => {
      const { device, client } = await setup();
      const cases: [string, number][] = [
        ['tsstart=yesterday', 10002],
        ['tsend=2026-13-45T00:00:00Z', 10002],
        [`tsstart=${T0 + HOUR}&tsend=${T0}`, 10002],
        ['tsstart=1.5', 10002],
        ['data_fields=temp;drop table', 422],
        ['max_points=1', 422],
      ];
      for (const [query, code] of cases) {
        const res = await client.get(`/api/v1/core/data/${device.id}?${query}`);
        expect(res.body.code, query).toBe(code);
      }
    });

    it('downsamples long ranges into buckets with exact min, max, avg and count, keeping peaks', async () => {
      const { team, device, client } = await setup();
      // One day of 1-minute data: value = minute of the hour (0..59), so every hourly bucket has min 0,
      // max 59, avg 29.5; one spike of 1000 at 13:37 and a text value that must not break the chart.
      const rows: DataRowFixture[] = [];
      for (let i = 0; i < 24 * 60; i += 1) {
        const data: Record<string, unknown> = { level: i % 60, pump: i % 2 === 0 };
        if (i === 13 * 60 + 37) data.level = 1000;
        if (i === 5 * 60 + 10) data.level = 'n/a';
        rows.push({ at: new Date(T0 + i * MINUTE), data });
      }
      await insertData(suite.db, team.company.id, device.id, rows);
      const res = await client.get(
        `/api/v1/core/data/${device.id}?data_fields=level,pump&tsstart=${T0}&tsend=${T0 + 24 * HOUR - 1}&max_points=24`,
      );
      expect(res.status).toBe(200);
      const payload = res.body.payload;
      expect(payload).toMatchObject({ total: 1440, downsampled: true, bucket_seconds: 3600 });
      expect(payload.points).toHaveLength(24);
      const byHour = (h: number) => payload.points[h];
      expect(byHour(0)).toEqual({
        created_at: new Date(T0).toISOString(),
        count: 60,
        data: { level: 29.5, pump: 0.5 },
        min: { level: 0, pump: 0 },
        max: { level: 59, pump: 1 },
        geo: null,
        metalabel: null,
      });
      // The peak survives: max 1000, avg moved by (1000 - 37) / 60.
      expect(byHour(13).max.level).toBe(1000);
      expect(byHour(13).data.level).toBeCloseTo(29.5 + (1000 - 37) / 60, 10);
      // The text value is left out: 59 numbers, minute 10 missing.
      expect(byHour(5).count).toBe(60);
      expect(byHour(5).data.level).toBeCloseTo((1770 - 10) / 59, 10);
      // Below the limit the same range comes back raw.
      const raw = await client.get(
        `/api/v1/core/data/${device.id}?data_fields=level&tsstart=${T0}&tsend=${T0 + 24 * HOUR - 1}&max_points=2000`,
      );
      expect(raw.body.payload).toMatchObject({ downsampled: false, total: 1440 });
      expect(raw.body.payload.points).toHaveLength(1440);
    });

    it(
      'answers a long range up to now from rollups plus the raw tail, like the raw rows, late data included',
      async () => {
        const { team, device, client } = await setup();
        const other = await createTeam(suite.db);
        const outsider = new TestClient(app);
        await outsider.login(other.plain.email, PASSWORD);
        const STEP = 10 * MINUTE;
        const end = Math.floor(Date.now() / STEP) * STEP;
        const start = end - 100 * 24 * HOUR;
        const rows: DataRowFixture[] = [];
        for (let t = start; t < end; t += STEP) {
          const i = (t - start) / STEP;
          rows.push({
            at: new Date(t),
            data: { temperature: 10 + 15 * Math.sin(i / 144), humidity: i % 40 },
          });
        }
        await insertData(suite.db, team.company.id, device.id, rows);
        const url = `/api/v1/core/data/${device.id}?data_fields=temperature,humidity&tsstart=${start}&tsend=${end + 5 * MINUTE}`;
        const expectLikeRaw = async () => {
          const res = await client.get(url);
          expect(res.status).toBe(200);
          const payload = res.body.payload;
          // 100 days at 1500 points: 2-hour buckets, in the rollups' widths.
          expect(payload).toMatchObject({ downsampled: true, bucket_seconds: 7200 });
          const raw = await readDeviceDataBuckets(
            suite.db,
            team.company.id,
            device.id,
            { from: new Date(start), to: new Date(end + 5 * MINUTE + 1) },
            ['temperature', 'humidity'],
            7200,
          );
          expect(payload.total).toBe(raw.reduce((sum, b) => sum + b.count, 0));
          expect(
            payload.points.map((p: { created_at: string; count: number }) => [p.created_at, p.count]),
          ).toEqual(raw.map((b) => [b.start.toISOString(), b.count]));
          payload.points.forEach(
            (p: { min: Record<string, number>; max: Record<string, number> }, i: number) => {
              expect(p.min.temperature).toBe(raw[i]!.fields.temperature!.min);
              expect(p.max.humidity).toBe(raw[i]!.fields.humidity!.max);
            },
          );
          return payload;
        };
        await expectLikeRaw();
        const { rows: stored } = await suite.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM device_rollups h JOIN device_series s ON s.id = h.series
          WHERE s.device_id = $1 AND s.company_id = $2`,
          [device.id, team.company.id],
        );
        expect(stored[0]!.n).toBeGreaterThan(1000);
        // Late data 50 days back and a fresh uplink in the open bucket both show on the next read.
        await insertData(suite.db, team.company.id, device.id, [
          { at: new Date(start + 50 * 24 * HOUR + 3 * MINUTE), data: { temperature: 999 } },
          { at: new Date(end + MINUTE), data: { temperature: -99 } },
        ]);
        const after = await expectLikeRaw();
        const temperatures = after.points.map((p: { max: { temperature: number } }) => p.max.temperature);
        expect(Math.max(...temperatures)).toBe(999);
        expect(after.points.at(-1).min.temperature).toBe(-99);
        // Another company sees neither the device nor its rollups.
        expect((await outsider.get(url)).status).toBe(404);
      },
      LONG_RANGE_TIMEOUT_MS,
    );

    it(
      'over a long range charts the reported fields from the rollups, and a sparse device point by point',
      async () => {
        const { team, device, client } = await setup();
        const sparse = await createDevice(suite.db, team.company.id);
        const DAY = 24 * HOUR;
        const rows: DataRowFixture[] = [];
        for (let i = 0; i < 200 * 24; i += 1)
          rows.push({ at: new Date(T0 + i * HOUR), data: { t: i % 24, on: i % 2 === 0 } });
        await insertData(suite.db, team.company.id, device.id, rows);
        await setCurrent(
          suite.db,
          team.company.id,
          device.id,
          { t: 1, on: true },
          {},
          new Date(T0 + 200 * DAY),
        );
        await insertData(
          suite.db,
          team.company.id,
          sparse.id,
          Array.from({ length: 200 }, (_, i) => ({ at: new Date(T0 + i * DAY), data: { t: i } })),
        );
        const range = `tsstart=${T0}&tsend=${T0 + 200 * DAY - 1}`;
        const res = await client.get(`/api/v1/core/data/${device.id}?${range}`);
        // 200 days at 1500 points: 6-hour buckets, stored in the rollups.
        expect(res.body.payload).toMatchObject({ total: 4800, downsampled: true, bucket_seconds: 21600 });
        expect(res.body.payload.points).toHaveLength(800);
        expect(res.body.payload.points[1]).toMatchObject({
          count: 6,
          min: { t: 6, on: 0 },
          max: { t: 11, on: 1 },
          data: { t: 8.5, on: 0.5 },
        });
        const { rows: stored } = await suite.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM device_rollups h JOIN device_series s ON s.id = h.series
          WHERE s.device_id = $1`,
          [device.id],
        );
        // 800 buckets of 6 hours: every hour and every 6-hour block stored once, with all of the device's
        // fields (migration 0043).
        expect(stored[0]!.n).toBe(4800 + 800);
        const again = await client.get(`/api/v1/core/data/${device.id}?${range}`);
        expect(again.body.payload).toEqual(res.body.payload);
        const few = await client.get(`/api/v1/core/data/${sparse.id}?${range}`);
        expect(few.body.payload).toMatchObject({ total: 200, downsampled: false, bucket_seconds: null });
        expect(few.body.payload.points).toHaveLength(200);
        expect(few.body.payload.points[199].data).toEqual({ t: 199 });
      },
      LONG_RANGE_TIMEOUT_MS,
    );

    it('charts the fields the device reports when none are named', async () => {
      const { team, device, client } = await setup();
      const rows: DataRowFixture[] = [];
      for (let i = 0; i < 120; i += 1) rows.push({ at: new Date(T0 + i * MINUTE), data: { t: i } });
      await insertData(suite.db, team.company.id, device.id, rows);
      await setCurrent(suite.db, team.company.id, device.id, { t: 119 }, {}, new Date(T0 + 119 * MINUTE));
      const res = await client.get(
        `/api/v1/core/data/${device.id}?tsstart=${T0}&tsend=${T0 + 2 * HOUR - 1}&max_points=10`,
      );
      expect(res.body.payload).toMatchObject({ downsampled: true, bucket_seconds: 900 });
      expect(res.body.payload.points[0]).toMatchObject({
        count: 15,
        min: { t: 0 },
        max: { t: 14 },
        data: { t: 7 },
      });
    });

    it('never shows data recorded for another company, even on the same device id', async () => {
      const { team, device, client } = await setup();
      const other = await createTeam(suite.db);
      // History written while the device belonged to another company stays with that company.
      await insertData(suite.db, other.company.id, device.id, [{ at: new Date(T0), data: { t: 1 } }]);
      await insertData(suite.db, team.company.id, device.id, [{ at: new Date(T0 + MINUTE), data: { t: 2 } }]);
      const res = await client.get(`/api/v1/core/data/${device.id}?tsstart=${T0}&tsend=${T0 + HOUR}`);
      expect(res.body.payload.points.map((p: { data: unknown }) => p.data)).toEqual([{ t: 2 }]);
    });
  });

  describe('GET /core/data/{id}/current', () => {
    it('answers latest values with their times and a stale flag after 8 hours', async () => {
      const { team, device, client } = await setup();
      const now = Date.now();
      const fresh = new Date(now - 7 * HOUR).toISOString();
      const old = new Date(now - 9 * HOUR).toISOString();
      await setCurrent(
        suite.db,
        team.company.id,
        device.id,
        { temperature: 21.5, humidity: 40, co2: 500 },
        { temperature: fresh, humidity: old, co2: fresh },
        new Date(now - 7 * HOUR),
      );
      const res = await client.get(
        `/api/v1/core/data/${device.id}/current?data_fields=temperature,humidity,wind`,
      );
      expect(res.status).toBe(200);
      expect(res.body.payload).toEqual({
        device_id: device.id,
        updated_at: new Date(now - 7 * HOUR).toISOString(),
        data: { temperature: 21.5, humidity: 40 },
        field_times: { temperature: fresh, humidity: old },
        stale: { temperature: false, humidity: true },
        geo: null,
      });
      const all = await client.get(`/api/v1/core/data/${device.id}/current`);
      expect(Object.keys(all.body.payload.data).sort()).toEqual(['co2', 'humidity', 'temperature']);
    });

    it('answers empty maps before the first value', async () => {
      const { device, client } = await setup();
      const res = await client.get(`/api/v1/core/data/${device.id}/current`);
      expect(res.body.payload).toEqual({
        device_id: device.id,
        updated_at: null,
        data: {},
        field_times: {},
        stale: {},
        geo: null,
      });
    });
  });
});
