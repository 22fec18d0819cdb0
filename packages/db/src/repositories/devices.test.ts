import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db';
import { withTenant } from '../tenant';
import { forEachDb } from '../testing';
import { insertCompany } from './companies';
import { DEVICE_STATUS_COLUMNS } from './device-current';
import { readDeviceData, readDeviceDataUpTo, readLastDeviceRecord } from './device-data';
import { readDeviceDataBuckets } from './device-data-buckets';
import { listDevicePinColumnsJson, listDevices } from './device-list';
import { findDevice, reassignDevice, updateDevice } from './devices';
import { insertIntegrationToken, listIntegrationTokens, revokeIntegrationToken } from './integration-tokens';
import { findTtsDownlinkRoute, saveTtsDownlinkRoute } from './tts-downlink-routes';

/** device_current's status columns (migration 0015); the others are the devices row's. */
const STATUS_COLUMNS = new Set<string>(DEVICE_STATUS_COLUMNS);

async function insertRow(q: Queryable, table: string, values: Record<string, unknown>) {
  const keys = Object.keys(values);
  return q.query<{ id: number }>(
    `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')})
     RETURNING ${table === 'devices' ? 'id::int AS id' : 'device_id::int AS id'}`,
    Object.values(values),
  );
}

async function device(q: Queryable, companyId: number, columns: Record<string, unknown> = {}) {
  const own = Object.entries(columns).filter(([key]) => !STATUS_COLUMNS.has(key));
  const status = Object.entries(columns).filter(([key]) => STATUS_COLUMNS.has(key));
  const { rows } = await insertRow(q, 'devices', {
    name: 'd',
    ...Object.fromEntries(own),
    company_id: companyId,
  });
  const id = rows[0]!.id;
  if (status.length > 0)
    await insertRow(q, 'device_current', {
      ...Object.fromEntries(status),
      device_id: id,
      company_id: companyId,
      updated_at: columns.last_online_at ?? new Date(),
    });
  return id;
}

const T0 = Date.parse('2026-02-01T00:00:00Z');

describe('device repositories', () => {
  forEachDb((suite) => {
    it('lists and finds only the company own devices, also behind row-level security', async () => {
      const a = await insertCompany(suite.db, { name: 'A' });
      const b = await insertCompany(suite.db, { name: 'B' });
      const own = await device(suite.db, a.id, { name: 'own' });
      const foreign = await device(suite.db, b.id, { name: 'foreign' });
      const names = await withTenant(suite.db, a.id, (tx) => listDevices(tx, a.id));
      expect(names.map((d) => d.name)).toEqual(['own']);
      expect(await findDevice(suite.db, a.id, foreign)).toBeNull();
      expect(await updateDevice(suite.db, a.id, foreign, { name: 'stolen' })).toBe(false);
      expect((await findDevice(suite.db, b.id, foreign))?.name).toBe('foreign');
      expect((await findDevice(suite.db, a.id, own))?.rulesCount).toBe(0);
    });

    it('writes the map columns as JSON text in the list order, only the company own devices', async () => {
      const a = await insertCompany(suite.db, { name: 'Map A' });
      const b = await insertCompany(suite.db, { name: 'Map B' });
      const zulu = await device(suite.db, a.id, {
        name: 'zulu',
        state: 'lost',
        latitude: 1e-5,
        longitude: -7.25,
      });
      const alpha = await device(suite.db, a.id, {
        name: 'Alpha "quoted"',
        state: 'maintenance',
        is_active: true,
        latitude: 48.041477,
        longitude: 7.576644,
      });
      const mid = await device(suite.db, a.id, { name: 'mid' });
      await device(suite.db, b.id, { name: 'foreign', latitude: 1, longitude: 1 });
      await suite.db.query(
        `INSERT INTO device_current (device_id, company_id, data, field_times, updated_at)
         VALUES ($1, $2, '{"t": 21.5, "s": "on \\"x\\"", "o": {"k": [1, 2]}}', '{}', now())
         ON CONFLICT (device_id) DO UPDATE SET data = EXCLUDED.data`,
        [alpha, a.id],
      );
      const columns = (filter: Parameters<typeof listDevicePinColumnsJson>[2], fields: string[] = []) =>
        withTenant(suite.db, a.id, (tx) => listDevicePinColumnsJson(tx, a.id, filter, fields));
      const text = await columns({}, ['t', 's', 'o', 'missing']);
      // No space after the commas (the text goes out as it is), and it parses to the columns.
      expect(text).toContain(`"id":[${alpha},${mid},${zulu}]`);
      expect(JSON.parse(text)).toEqual({
        count: 3,
        id: [alpha, mid, zulu],
        states: ['maintenance', 'ok', 'lost'],
        state: [0, 1, 2],
        is_active: [1, 0, 0],
        latitude: [48.041477, null, 1e-5],
        longitude: [7.576644, null, -7.25],
        data: {
          t: [21.5, null, null],
          s: ['on "x"', null, null],
          o: [{ k: [1, 2] }, null, null],
          missing: [null, null, null],
        },
      });
      // The list's filters, sort and paging apply; none found is empty columns.
      expect(JSON.parse(await columns({ sort: 'name', order: 'desc', limit: 2 }))).toMatchObject({
        count: 2,
        id: [zulu, mid],
        states: ['lost', 'ok'],
        state: [0, 1],
        data: {},
      });
      expect(JSON.parse(await columns({ state: 'broken' }, ['t']))).toEqual({
        count: 0,
        id: [],
        states: [],
        state: [],
        is_active: [],
        latitude: [],
        longitude: [],
        data: { t: [] },
      });
      // Another company's devices never appear, whatever the company asked for.
      const other = JSON.parse(
        await withTenant(suite.db, b.id, (tx) => listDevicePinColumnsJson(tx, b.id, {}, ['t'])),
      );
      expect(other).toMatchObject({ count: 1, latitude: [1], data: { t: [null] } });
      expect(other.id).not.toContain(alpha);
    });

    it('uses exclusive lower and inclusive upper battery bounds and literal search text', async () => {
      const c = await insertCompany(suite.db, { name: 'C' });
      for (const level of [10, 10.5, 30, 30.1])
        await device(suite.db, c.id, { name: `b${level}`, battery_level: level });
      await device(suite.db, c.id, { name: '100%_sure' });
      const names = async (filter: Parameters<typeof listDevices>[2]) =>
        (await listDevices(suite.db, c.id, filter)).map((d) => d.name);
      expect(await names({ battery: { min: 10, max: 30 } })).toEqual(['b10.5', 'b30']);
      expect(await names({ battery: { min: null, max: 10 } })).toEqual(['b10']);
      expect(await names({ search: '%_' })).toEqual(['100%_sure']);
      expect(await names({ search: 'b1_' })).toEqual([]);
    });

    it('reassigns only a device of the given company and reports what it removed', async () => {
      const from = await insertCompany(suite.db, { name: 'From' });
      const to = await insertCompany(suite.db, { name: 'To' });
      const id = await device(suite.db, from.id);
      await suite.db.query(
        `INSERT INTO rules (company_id, device_id, data_field, operator, value) VALUES ($1, $2, 't', 'gte', 1)`,
        [from.id, id],
      );
      // The old owner's TTS application and key (migration 0022) must not travel with the device.
      await saveTtsDownlinkRoute(suite.db, from.id, id, {
        pushUrl: 'https://tts.example.test/api/v3/as/applications/a/webhooks/w/devices/d/down/push',
        apiKey: 'NNSXS.FROM',
      });
      expect(await suite.db.transaction((tx) => reassignDevice(tx, to.id, id, from.id))).toBeNull();
      const summary = await suite.db.transaction((tx) => reassignDevice(tx, from.id, id, to.id));
      expect(summary).toMatchObject({ rules: 1, alarms: 0, currentValues: 0, ttsDownlinkRoutes: 1 });
      expect((await findDevice(suite.db, to.id, id))?.companyId).toBe(to.id);
      expect(await findTtsDownlinkRoute(suite.db, to.id, id)).toBeUndefined();
      expect(
        (await suite.db.query('SELECT 1 FROM tts_downlink_routes WHERE device_id = $1', [id])).rows,
      ).toEqual([]);
    });

    it('sets the online flag in device_current, with or without reported values, only for the own company', async () => {
      const a = await insertCompany(suite.db, { name: 'Flag A' });
      const b = await insertCompany(suite.db, { name: 'Flag B' });
      const silent = await device(suite.db, a.id, { name: 'silent' });
      const reported = await device(suite.db, a.id, { name: 'reported', is_active: true, battery_level: 33 });
      const foreign = await device(suite.db, b.id, { name: 'foreign' });

      expect(await updateDevice(suite.db, a.id, silent, { isActive: true })).toBe(true);
      expect(await updateDevice(suite.db, a.id, reported, { isActive: false })).toBe(true);
      expect(await updateDevice(suite.db, a.id, foreign, { isActive: true })).toBe(false);

      expect(await findDevice(suite.db, a.id, silent)).toMatchObject({ isActive: true, batteryLevel: null });
      expect(await findDevice(suite.db, a.id, reported)).toMatchObject({ isActive: false, batteryLevel: 33 });
      expect(await findDevice(suite.db, b.id, foreign)).toMatchObject({ isActive: false });
      const list = await listDevices(suite.db, a.id, { active: true });
      expect(list.map((d) => d.name)).toEqual(['silent']);
    });

    it("hands a device's status (last online, battery, signal) over with it, but not its latest values", async () => {
      const from = await insertCompany(suite.db, { name: 'Status from' });
      const to = await insertCompany(suite.db, { name: 'Status to' });
      const seen = new Date('2026-02-01T08:00:00Z');
      const id = await device(suite.db, from.id, { last_online_at: seen, battery_level: 61, rssi: -97 });
      await suite.db.query(
        `UPDATE device_current SET data = '{"temperature": 4.5}', field_times = '{"temperature": "2026-02-01T08:00:00Z"}'
          WHERE device_id = $1`,
        [id],
      );
      const summary = await suite.db.transaction((tx) => reassignDevice(tx, from.id, id, to.id));
      expect(summary?.currentValues).toBe(1);
      const moved = await findDevice(suite.db, to.id, id);
      expect(moved).toMatchObject({ lastOnlineAt: seen, batteryLevel: 61, rssi: -97, current: {} });
      // A device that never reported hands over no row.
      const silent = await device(suite.db, from.id);
      await suite.db.transaction((tx) => reassignDevice(tx, from.id, silent, to.id));
      const { rows } = await suite.db.query('SELECT 1 FROM device_current WHERE device_id = $1', [silent]);
      expect(rows).toEqual([]);
    });

    it('buckets exact min, max, sum and avg, ignores text values and picks fields in SQL', async () => {
      const c = await insertCompany(suite.db, { name: 'Data' });
      const id = await device(suite.db, c.id);
      // Two 10-minute buckets: 1, 2, 'x' | 10, true.
      const rows: [number, Record<string, unknown>][] = [
        [0, { v: 1, other: 5 }],
        [60_000, { v: 2 }],
        [120_000, { v: 'x' }],
        [600_000, { v: 10 }],
        [660_000, { v: true }],
      ];
      for (const [offset, data] of rows) {
        await suite.db.query(
          'INSERT INTO device_data (device_id, company_id, created_at, data) VALUES ($1, $2, $3, $4)',
          [id, c.id, new Date(T0 + offset), JSON.stringify(data)],
        );
      }
      const range = { from: new Date(T0), to: new Date(T0 + 3_600_000) };
      const buckets = await readDeviceDataBuckets(suite.db, c.id, id, range, ['v', 'missing'], 600);
      expect(buckets.map((b) => [b.start.toISOString(), b.count, b.fields.v])).toEqual([
        [new Date(T0).toISOString(), 3, { min: 1, max: 2, sum: 3, avg: 1.5, count: 2 }],
        [new Date(T0 + 600_000).toISOString(), 2, { min: 1, max: 10, sum: 11, avg: 5.5, count: 2 }],
      ]);
      expect(buckets[0]!.fields.missing).toEqual({ min: null, max: null, sum: null, avg: null, count: 0 });
      expect((await readDeviceData(suite.db, c.id, id, range, ['other']))[0]!.data).toEqual({ other: 5 });
      expect((await readLastDeviceRecord(suite.db, c.id, id, null))?.data).toEqual({ v: true });
      // Another company reads nothing of this device's rows.
      const other = await insertCompany(suite.db, { name: 'Other' });
      expect(await readDeviceDataBuckets(suite.db, other.id, id, range, ['v'], 600)).toEqual([]);
    });

    it("reads a short range in one statement, or says to count when it is longer or not the company's", async () => {
      const from = await insertCompany(suite.db, { name: 'Up to' });
      const id = await device(suite.db, from.id);
      const range = { from: new Date(T0), to: new Date(T0 + 3_600_000) };
      expect(await readDeviceDataUpTo(suite.db, from.id, id, range, null, 3)).toEqual([]);
      for (const minute of [0, 10, 20]) {
        await suite.db.query(
          'INSERT INTO device_data (device_id, company_id, created_at, data) VALUES ($1, $2, $3, $4)',
          [id, from.id, new Date(T0 + minute * 60_000), JSON.stringify({ v: minute, w: 1 })],
        );
      }
      const three = await readDeviceDataUpTo(suite.db, from.id, id, range, ['v'], 3);
      expect(three?.map((p) => p.data)).toEqual([{ v: 0 }, { v: 10 }, { v: 20 }]);
      expect(three).toEqual(await readDeviceData(suite.db, from.id, id, range, ['v']));
      // One more than the limit: the caller counts and buckets instead.
      expect(await readDeviceDataUpTo(suite.db, from.id, id, range, null, 2)).toBeNull();
      // Moved to another company, its old rows (recorded under the first) are no longer the first's to read.
      const to = await insertCompany(suite.db, { name: 'Up to, new owner' });
      await suite.db.transaction((tx) => reassignDevice(tx, from.id, id, to.id));
      expect(await readDeviceDataUpTo(suite.db, from.id, id, range, null, 3)).toBeNull();
      expect(await readDeviceDataUpTo(suite.db, to.id, id, range, null, 3)).toEqual([]);
    });

    it('lists webhook token kinds only and revokes once', async () => {
      const c = await insertCompany(suite.db, { name: 'Tokens' });
      const token = await insertIntegrationToken(suite.db, c.id, {
        kind: 'tts',
        name: 'TTS',
        tokenHash: `hash-${c.id}`,
        createdBy: null,
      });
      await suite.db.query(
        `INSERT INTO integration_tokens (company_id, kind, name, token_hash) VALUES ($1, 'external_api', 'API', $2)`,
        [c.id, `api-${c.id}`],
      );
      expect((await listIntegrationTokens(suite.db, c.id)).map((t) => t.kind)).toEqual(['tts']);
      expect(await revokeIntegrationToken(suite.db, c.id, token.id)).toBe(true);
      const first = (await listIntegrationTokens(suite.db, c.id))[0]!.revokedAt;
      expect(await revokeIntegrationToken(suite.db, c.id, token.id)).toBe(true);
      expect((await listIntegrationTokens(suite.db, c.id))[0]!.revokedAt).toEqual(first);
      const other = await insertCompany(suite.db, { name: 'Other tokens' });
      expect(await revokeIntegrationToken(suite.db, other.id, token.id)).toBe(false);
    });
  });
});
