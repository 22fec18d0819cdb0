import { randomUUID } from 'node:crypto';
import { loadConfig } from '@iot/config';
import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { deviceCacheOptions } from '../index.js';
import { createCodec, createCompany, createDevice, randomDevEui } from '../test-support/seed.js';
import { DeviceDirectory, normalizeDevEui } from './device-directory.js';

describe('deviceCacheOptions', () => {
  it('sizes the cache from INGEST_DEVICE_CACHE_ENTRIES and leaves the default otherwise', () => {
    expect(deviceCacheOptions(loadConfig({ INGEST_DEVICE_CACHE_ENTRIES: '250000' }))).toEqual({
      maxEntries: 250_000,
    });
    expect(deviceCacheOptions(loadConfig({}))).toEqual({});
  });
});

describe('normalizeDevEui', () => {
  it.each([
    ['0004A30B001C0530', '0004a30b001c0530'],
    ['00-04-a3-0b-00-1c-05-30', '0004a30b001c0530'],
    ['0004A30B001C053', null],
    ['zz04A30B001C0530', null],
    [42, null],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeDevEui(input)).toBe(expected);
  });
});

forEachDb(
  (suite) => {
    describe('DeviceDirectory', () => {
      it('serves lookups from memory until the TTL passes or the device is invalidated', async () => {
        let now = 0;
        const directory = new DeviceDirectory(suite.db, { ttlMs: 1000, missTtlMs: 100, now: () => now });
        const company = await createCompany(suite.db);
        const device = await createDevice(suite.db, company, { devEui: randomDevEui() });
        expect((await directory.deviceByUuid(device.uuid))?.state).toBe('ok');
        await suite.db.query(`UPDATE devices SET state = 'disposed' WHERE id = $1`, [device.id]);
        expect((await directory.deviceByUuid(device.uuid))?.state).toBe('ok');
        directory.invalidateDevice(device.id);
        expect((await directory.deviceByUuid(device.uuid))?.state).toBe('disposed');
        await suite.db.query(`UPDATE devices SET state = 'ok' WHERE id = $1`, [device.id]);
        now += 1001;
        expect((await directory.deviceByUuid(device.uuid))?.state).toBe('ok');
      });

      it('keeps a codec at most 30 s, however long devices are kept, and reads its suspension', async () => {
        let now = 0;
        const directory = new DeviceDirectory(suite.db, { ttlMs: 3_600_000, now: () => now });
        directory.changesAnnounced();
        const company = await createCompany(suite.db);
        const codecId = await createCodec(
          suite.db,
          company,
          'function decodeUplink() { return { data: { v: 1 } }; }',
        );
        expect(await directory.codec(company, codecId)).toEqual({
          script: 'function decodeUplink() { return { data: { v: 1 } }; }',
          suspended: false,
        });
        await suite.db.query(
          "UPDATE codecs SET script = 'function decodeUplink() { return { data: { v: 2 } }; }', suspended_at = now() WHERE id = $1",
          [codecId],
        );
        now = 26_000;
        expect((await directory.codec(company, codecId))?.suspended).toBe(false);
        now = 30_000;
        expect(await directory.codec(company, codecId)).toEqual({
          script: 'function decodeUplink() { return { data: { v: 2 } }; }',
          suspended: true,
        });
        expect(await directory.codec(company + 1, codecId)).toBeNull();
      });

      it('drops everything and keeps the short TTL while announcements are lost', async () => {
        let now = 0;
        const directory = new DeviceDirectory(suite.db, {
          ttlMs: 1000,
          announcedTtlMs: 60_000,
          now: () => now,
        });
        const device = await createDevice(suite.db, await createCompany(suite.db));
        directory.changesAnnounced();
        expect((await directory.deviceByUuid(device.uuid))?.state).toBe('ok');
        await suite.db.query(`UPDATE devices SET state = 'lost' WHERE id = $1`, [device.id]);
        // Announced: the cached entry would live a minute.
        now = 30_000;
        expect((await directory.deviceByUuid(device.uuid))?.state).toBe('ok');
        // Lost: the entry goes at once, and a new one lives only the short TTL.
        directory.changesUnannounced();
        expect(directory.deviceTtlMs).toBe(1000);
        expect((await directory.deviceByUuid(device.uuid))?.state).toBe('lost');
        await suite.db.query(`UPDATE devices SET state = 'ok' WHERE id = $1`, [device.id]);
        now += 1001;
        expect((await directory.deviceByUuid(device.uuid))?.state).toBe('ok');
      });

      it('keeps at most maxEntries devices, dropping the one cached longest ago', async () => {
        let lookups = 0;
        const counting = {
          ...suite.db,
          query: ((sql: string, params?: unknown[]) => {
            if (/FROM devices/.test(sql)) lookups += 1;
            return suite.db.query(sql, params);
          }) as typeof suite.db.query,
        };
        const directory = new DeviceDirectory(counting, { maxEntries: 2 });
        const company = await createCompany(suite.db);
        const [a, b, c] = [
          await createDevice(suite.db, company),
          await createDevice(suite.db, company),
          await createDevice(suite.db, company),
        ];
        for (const device of [a, b, c]) await directory.deviceByUuid(device!.uuid);
        expect(lookups).toBe(3);
        await directory.deviceByUuid(c!.uuid);
        await directory.deviceByUuid(b!.uuid);
        expect(lookups).toBe(3);
        await directory.deviceByUuid(a!.uuid);
        expect(lookups).toBe(4);
      });

      it('finds a DevEUI only within its company and shares one query among concurrent lookups', async () => {
        const directory = new DeviceDirectory(suite.db);
        const a = await createCompany(suite.db);
        const b = await createCompany(suite.db);
        const device = await createDevice(suite.db, b, { devEui: randomDevEui() });
        expect(await directory.deviceByDevEui(a, device.devEui!)).toBeNull();
        const [first, second] = await Promise.all([
          directory.deviceByDevEui(b, device.devEui!),
          directory.deviceByDevEui(b, device.devEui!),
        ]);
        expect(first?.id).toBe(device.id);
        expect(second).toBe(first);
      });

      it('lets devices cached in the same instant expire spread over the last tenth of the TTL', async () => {
        let now = 0;
        const directory = new DeviceDirectory(suite.db, { ttlMs: 1000, now: () => now });
        const company = await createCompany(suite.db);
        const devices: { uuid: string }[] = [];
        for (let i = 0; i < 40; i++) devices.push(await createDevice(suite.db, company));
        for (const d of devices) await directory.deviceByUuid(d.uuid);
        await suite.db.query(`UPDATE devices SET state = 'disposed' WHERE company_id = $1`, [company]);
        const states = async () => {
          const seen = { ok: 0, disposed: 0 };
          for (const d of devices) {
            const state = (await directory.deviceByUuid(d.uuid))?.state as 'ok' | 'disposed';
            seen[state] += 1;
          }
          return seen;
        };

        now = 899;
        expect(await states()).toEqual({ ok: 40, disposed: 0 });
        now = 950;
        const middle = await states();
        // Uniform over 900..1000 ms: all 40 on one side of the middle has a chance of 2 in 10^12.
        expect(middle.ok).toBeGreaterThan(0);
        expect(middle.disposed).toBeGreaterThan(0);
        now = 1001;
        expect(await states()).toEqual({ ok: 0, disposed: 40 });
      });

      it('forgets a cached unknown uuid or DevEUI when a device with it is announced', async () => {
        const directory = new DeviceDirectory(suite.db, { missTtlMs: 60_000 });
        const company = await createCompany(suite.db);
        const devEui = randomDevEui();
        const uuid = randomUUID();
        expect(await directory.deviceByUuid(uuid)).toBeNull();
        expect(await directory.deviceByDevEui(company, devEui)).toBeNull();
        const { rows } = await suite.db.query<{ id: number }>(
          `INSERT INTO devices (company_id, name, uuid, dev_eui) VALUES ($1, 'new', $2, $3) RETURNING id::int AS id`,
          [company, uuid, devEui],
        );
        expect(await directory.deviceByUuid(uuid)).toBeNull();
        directory.applyDeviceChange({
          id: rows[0]!.id,
          keys: [{ companyId: company, uuid: uuid.toUpperCase(), devEui }],
        });
        expect((await directory.deviceByUuid(uuid))?.id).toBe(rows[0]!.id);
        expect((await directory.deviceByDevEui(company, devEui))?.id).toBe(rows[0]!.id);
      });

      it('drops a device under its keys before and after a move to another company and DevEUI', async () => {
        const directory = new DeviceDirectory(suite.db, { ttlMs: 600_000, missTtlMs: 600_000 });
        const a = await createCompany(suite.db);
        const b = await createCompany(suite.db);
        const device = await createDevice(suite.db, a, { devEui: randomDevEui() });
        const newEui = randomDevEui();
        expect((await directory.deviceByUuid(device.uuid))?.companyId).toBe(a);
        expect((await directory.deviceByDevEui(a, device.devEui!))?.id).toBe(device.id);
        expect(await directory.deviceByDevEui(b, newEui)).toBeNull();
        await suite.db.query('UPDATE devices SET company_id = $2, dev_eui = $3 WHERE id = $1', [
          device.id,
          b,
          newEui,
        ]);
        directory.applyDeviceChange({
          id: device.id,
          keys: [
            { companyId: a, uuid: device.uuid, devEui: device.devEui },
            { companyId: b, uuid: device.uuid, devEui: newEui },
          ],
        });
        expect((await directory.deviceByUuid(device.uuid))?.companyId).toBe(b);
        expect(await directory.deviceByDevEui(a, device.devEui!)).toBeNull();
        expect((await directory.deviceByDevEui(b, newEui))?.id).toBe(device.id);
      });

      it('does not cache a lookup that was running when the device was invalidated', async () => {
        const company = await createCompany(suite.db);
        const device = await createDevice(suite.db, company);
        let release!: () => void;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        // A database whose first device lookup answers only after the change has been announced.
        let gated = true;
        const slow = {
          ...suite.db,
          query: async <R>(sql: string, params?: readonly unknown[]) => {
            const result = await suite.db.query<R>(sql, params);
            if (gated) {
              gated = false;
              await gate;
            }
            return result;
          },
        };
        const directory = new DeviceDirectory(slow);
        const stale = directory.deviceByUuid(device.uuid);
        await suite.db.query(`UPDATE devices SET state = 'lost' WHERE id = $1`, [device.id]);
        directory.invalidateDevice(device.id);
        // A lookup after the invalidation does not join the one still running.
        expect((await directory.deviceByUuid(device.uuid))?.state).toBe('lost');
        release();
        expect((await stale)?.state).toBe('ok');
        expect((await directory.deviceByUuid(device.uuid))?.state).toBe('lost');
      });

      it('treats a malformed uuid as unknown without asking the database', async () => {
        const directory = new DeviceDirectory(suite.db);
        expect(await directory.deviceByUuid("1' OR '1'='1")).toBeNull();
      });
    });
  },
  { kinds: ['pglite'] },
);
