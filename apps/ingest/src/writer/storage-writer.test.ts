import type { UplinkEnvelope } from '@iot/contracts/uplinks';
import { messageHash } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { createInProcessEventLog } from '@iot/event-log';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createCompany, createDevice } from '../test-support/seed.js';
import { startStorageWriter, writeEnvelopes, writeUplinkBatch } from './storage-writer.js';

function envelope(
  device: { id: number; companyId: number },
  measuredAt: string,
  data: UplinkEnvelope['data'],
  extra: Partial<UplinkEnvelope> = {},
): UplinkEnvelope {
  return {
    v: 1,
    kind: 'uplink',
    deviceId: device.id,
    companyId: device.companyId,
    source: 'http',
    receivedAt: measuredAt,
    measuredAt,
    messageId: `m-${measuredAt}`,
    data,
    ...extra,
  };
}

forEachDb((suite) => {
  describe('writeUplinkBatch', () => {
    it('stores a repeated uplink once, within a batch and across batches', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      const e = envelope(device, '2026-01-01T10:00:00.000Z', { temperature: 21.5 }, { fcnt: 7 });
      expect(await writeUplinkBatch(suite.db, [e, { ...e }])).toBe(1);
      expect(await writeUplinkBatch(suite.db, [e])).toBe(0);
      const { rows } = await suite.db.query<{ data: unknown; fcnt: number; message_hash: number }>(
        'SELECT data, fcnt, message_hash FROM device_data WHERE device_id = $1',
        [device.id],
      );
      expect(rows).toEqual([
        { data: { temperature: 21.5 }, fcnt: 7, message_hash: messageHash(e.messageId) },
      ]);
    });

    it('coalesces a batch into one device_current row and never moves a field back in time', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      await writeUplinkBatch(suite.db, [
        envelope(device, '2026-01-01T10:00:00.000Z', { temperature: 10, humidity: 50 }),
        envelope(
          device,
          '2026-01-01T10:10:00.000Z',
          { temperature: 11 },
          { geo: { latitude: 48, longitude: 7.5 } },
        ),
      ]);
      const read = async () =>
        (
          await suite.db.query<{
            data: Record<string, unknown>;
            field_times: Record<string, string>;
            latitude: number;
            updated_at: Date;
          }>('SELECT data, field_times, latitude, updated_at FROM device_current WHERE device_id = $1', [
            device.id,
          ])
        ).rows;
      let rows = await read();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.data).toEqual({ temperature: 11, humidity: 50 });
      expect(rows[0]!.latitude).toBe(48);
      expect(rows[0]!.updated_at.toISOString()).toBe('2026-01-01T10:10:00.000Z');

      // An older uplink arriving later: its temperature is older than the stored one, its co2 is new.
      await writeUplinkBatch(suite.db, [
        envelope(
          device,
          '2026-01-01T09:00:00.000Z',
          { temperature: 99, co2: 400 },
          { geo: { latitude: 1, longitude: 1 } },
        ),
      ]);
      rows = await read();
      expect(rows[0]!.data).toEqual({ temperature: 11, humidity: 50, co2: 400 });
      expect(rows[0]!.latitude).toBe(48);
      expect(rows[0]!.updated_at.toISOString()).toBe('2026-01-01T10:10:00.000Z');

      await writeUplinkBatch(suite.db, [envelope(device, '2026-01-01T11:00:00.000Z', { temperature: 12 })]);
      rows = await read();
      expect(rows[0]!.data).toMatchObject({ temperature: 12, humidity: 50 });
      expect(new Date(rows[0]!.field_times.temperature!).toISOString()).toBe('2026-01-01T11:00:00.000Z');
    });

    it.each([
      [{ battery_level: 87 }, 87, null],
      [{ battery: 55 }, 55, null],
      [{ level: 40 }, 40, null],
      [{ 'battery.level': 33 }, 33, null],
      [{ battery_voltage: 3.6 }, null, 3.6],
      [{ voltage: 3.1 }, null, 3.1],
      [{ bat_v: 3300 }, null, 3.3],
      [{ battery: 250 }, null, null],
    ])('reads the battery status from %j', async (data, level, voltage) => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      await writeUplinkBatch(suite.db, [envelope(device, '2026-01-02T10:00:00.000Z', data)]);
      const { rows } = await suite.db.query(
        `SELECT c.battery_level, c.battery_voltage, c.is_active, c.last_online_at
           FROM devices d JOIN device_current c ON c.device_id = d.id WHERE d.id = $1`,
        [device.id],
      );
      expect(rows[0]).toEqual({
        battery_level: level,
        battery_voltage: voltage,
        is_active: true,
        last_online_at: new Date('2026-01-02T10:00:00.000Z'),
      });
    });

    it('keeps signal, RSSI, SNR, mobile data and position; a late older uplink changes no status', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      await writeUplinkBatch(suite.db, [
        envelope(
          device,
          '2026-01-03T10:00:00.000Z',
          { battery_level: 90, signal_strength: 4, mobile_data_volume: 1200 },
          {
            rssi: -80,
            snr: 7.5,
            geo: { latitude: 48.04, longitude: 7.57 },
          },
        ),
      ]);
      await writeUplinkBatch(suite.db, [
        envelope(device, '2026-01-03T09:00:00.000Z', { battery_level: 20 }, { rssi: -120, snr: -10 }),
      ]);
      const { rows } = await suite.db.query(
        `SELECT c.battery_level, c.signal_strength, c.rssi, c.snr, c.mobile_data_volume, d.latitude, d.longitude,
                c.last_online_at
           FROM devices d JOIN device_current c ON c.device_id = d.id WHERE d.id = $1`,
        [device.id],
      );
      expect(rows[0]).toEqual({
        battery_level: 90,
        signal_strength: 4,
        rssi: -80,
        snr: 7.5,
        mobile_data_volume: 1200,
        latitude: 48.04,
        longitude: 7.57,
        last_online_at: new Date('2026-01-03T10:00:00.000Z'),
      });
    });

    it('keeps a failed decode in device_logs with its raw bytes (level 3) and warnings at level 4', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      const raw = Buffer.from([0xde, 0xad, 0xbe, 0xef]);
      await writeUplinkBatch(suite.db, [
        envelope(
          device,
          '2026-01-04T10:00:00.000Z',
          {},
          {
            kind: 'decode_failed',
            errors: ['frame too short'],
            raw: raw.toString('base64'),
          },
        ),
        envelope(
          device,
          '2026-01-04T10:01:00.000Z',
          { temperature: -25 },
          { warnings: ['temperature: below -20, kept'] },
        ),
      ]);
      const { rows } = await suite.db.query<{
        level: number;
        message: string;
        kind: string;
        params: unknown;
        raw: Uint8Array | null;
      }>('SELECT level, message, kind, params, raw FROM device_logs WHERE device_id = $1 ORDER BY level', [
        device.id,
      ]);
      expect(rows.map((r) => [r.level, r.message])).toEqual([
        [3, 'uplink could not be decoded: frame too short'],
        [4, 'decoder warnings: temperature: below -20, kept'],
      ]);
      // Kind and parameters for the reader's language (migration 0040).
      expect(rows.map((r) => [r.kind, r.params])).toEqual([
        ['decode_failed', { errors: 'frame too short' }],
        ['decoder_warnings', { warnings: 'temperature: below -20, kept' }],
      ]);
      expect(Buffer.from(rows[0]!.raw!)).toEqual(raw);
      const stored = await suite.db.query('SELECT count(*)::int AS n FROM device_data WHERE device_id = $1', [
        device.id,
      ]);
      expect(stored.rows[0]).toEqual({ n: 1 });
    });

    it('writes one warning entry per device and batch, however many of its uplinks warned', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      await writeUplinkBatch(
        suite.db,
        [0, 1, 2].map((i) =>
          envelope(
            device,
            `2026-01-08T10:0${i}:00.000Z`,
            { temperature: i },
            { warnings: ['x: unknown data field'] },
          ),
        ),
      );
      const { rows } = await suite.db.query<{
        level: number;
        message: string;
        payload: { messageIds: string[] };
      }>('SELECT level, message, payload FROM device_logs WHERE device_id = $1', [device.id]);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.message).toBe('decoder warnings: x: unknown data field');
      expect(rows[0]!.payload.messageIds).toHaveLength(3);
    });

    it('stores text with a NUL character (jsonb refuses it) without the NUL', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      await writeUplinkBatch(suite.db, [
        envelope(
          device,
          '2026-01-06T10:00:00.000Z',
          { label: 'a\u0000b', path: 'c:\\u0000', 'quote"\\': '{"x": [1]}' },
          { messageId: 'id\u0000-1' },
        ),
      ]);
      const { rows } = await suite.db.query(
        'SELECT data, message_hash FROM device_data WHERE device_id = $1',
        [device.id],
      );
      expect(rows).toEqual([
        {
          data: { label: 'ab', path: 'c:\\u0000', 'quote"\\': '{"x": [1]}' },
          message_hash: messageHash('id-1'),
        },
      ]);
    });

    it('skips an envelope that can never be stored and keeps the rest of its batch', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company);
      const lines: Record<string, unknown>[] = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const stored = await writeEnvelopes(
        suite.db,
        [
          envelope(device, '2026-01-07T10:00:00.000Z', { temperature: 1 }),
          envelope(device, '2026-01-07T10:01:00.000Z', { temperature: 2 }, { fcnt: 1e20 }),
          envelope(device, '2026-01-07T10:02:00.000Z', { temperature: 3 }),
        ],
        log,
      );
      expect(stored).toBe(2);
      const { rows } = await suite.db.query(
        'SELECT data FROM device_data WHERE device_id = $1 ORDER BY created_at',
        [device.id],
      );
      expect(rows).toEqual([{ data: { temperature: 1 } }, { data: { temperature: 3 } }]);
      expect(lines.filter((l) => l.msg === 'uplink cannot be stored, skipped')).toHaveLength(1);
    });

    it('leaves out latest values whose device belongs to another company by now', async () => {
      const a = await createCompany(suite.db);
      const b = await createCompany(suite.db);
      const device = await createDevice(suite.db, b);
      await writeUplinkBatch(suite.db, [
        envelope({ id: device.id, companyId: a }, '2026-01-05T10:00:00.000Z', { temperature: 1 }),
      ]);
      // No device_current row: no latest values and no status, so the device stays offline.
      const current = await suite.db.query('SELECT 1 FROM device_current WHERE device_id = $1', [device.id]);
      expect(current.rows).toEqual([]);
    });

    it('merges a row newer than every stored value in place, keeps the position, and refuses another company', async () => {
      const a = await createCompany(suite.db);
      const b = await createCompany(suite.db);
      const device = await createDevice(suite.db, a);
      const read = async () =>
        (
          await suite.db.query<{
            data: Record<string, unknown>;
            field_times: Record<string, string>;
            latitude: number;
            longitude: number;
            updated_at: Date;
          }>(
            'SELECT data, field_times, latitude, longitude, updated_at FROM device_current WHERE device_id = $1',
            [device.id],
          )
        ).rows[0]!;
      const at = (row: Awaited<ReturnType<typeof read>>, field: string) =>
        new Date(row.field_times[field]!).toISOString();
      await writeUplinkBatch(suite.db, [
        envelope(
          device,
          '2026-01-06T10:00:00.000Z',
          { temperature: 5, humidity: 40 },
          { geo: { latitude: 48, longitude: 7 } },
        ),
      ]);
      // Every field newer than the stored row (the in-place path), one without position, one field new.
      await writeUplinkBatch(suite.db, [
        envelope(device, '2026-01-06T10:10:00.000Z', { temperature: 6 }),
        envelope(device, '2026-01-06T10:20:00.000Z', { temperature: 7, co2: 500 }),
      ]);
      let row = await read();
      expect(row.data).toEqual({ temperature: 7, humidity: 40, co2: 500 });
      expect([at(row, 'temperature'), at(row, 'humidity'), at(row, 'co2'), at(row, 'geo')]).toEqual([
        '2026-01-06T10:20:00.000Z',
        '2026-01-06T10:00:00.000Z',
        '2026-01-06T10:20:00.000Z',
        '2026-01-06T10:00:00.000Z',
      ]);
      expect([row.latitude, row.longitude]).toEqual([48, 7]);
      expect(row.updated_at.toISOString()).toBe('2026-01-06T10:20:00.000Z');
      // A batch with one field newer and one older than the stored row takes the per-field rule.
      await writeUplinkBatch(suite.db, [
        envelope(device, '2026-01-06T10:15:00.000Z', { co2: 1, humidity: 41 }),
        envelope(
          device,
          '2026-01-06T10:30:00.000Z',
          { temperature: 8 },
          { geo: { latitude: 49, longitude: 8 } },
        ),
      ]);
      row = await read();
      expect(row.data).toEqual({ temperature: 8, humidity: 41, co2: 500 });
      expect([row.latitude, row.longitude]).toEqual([49, 8]);
      expect(row.updated_at.toISOString()).toBe('2026-01-06T10:30:00.000Z');
      // The same device named with another company: neither path writes.
      await writeUplinkBatch(suite.db, [
        envelope({ id: device.id, companyId: b }, '2026-01-06T11:00:00.000Z', { temperature: 99 }),
      ]);
      expect((await read()).data).toEqual({ temperature: 8, humidity: 41, co2: 500 });
    });
  });
  describe('startStorageWriter', () => {
    it('counts every stored row and every transaction while two group commits are in flight', async () => {
      const company = await createCompany(suite.db);
      const devices: Awaited<ReturnType<typeof createDevice>>[] = [];
      for (let i = 0; i < 16; i++) devices.push(await createDevice(suite.db, company));
      const eventLog = createInProcessEventLog({ partitions: 16, capacity: 10_000 });
      const topic = 'uplinks_count';
      const writer = await startStorageWriter({
        db: suite.db,
        eventLog,
        log: pino({ level: 'silent' }),
        topic,
        maxBatch: 5,
        maxWaitMs: 0,
        maxRowsPerWrite: 10,
        concurrentWrites: 2,
      });
      try {
        const total = 400;
        const records = Array.from({ length: total }, (_, i) => {
          const device = devices[i % devices.length]!;
          const at = new Date(Date.UTC(2026, 0, 9, 10, 0, 0, i)).toISOString();
          return { key: String(device.id), value: envelope(device, at, { n: i }) };
        });
        for (let i = 0; i < total; i += 50) await eventLog.publish(topic, records.slice(i, i + 50));
        const until = Date.now() + 20_000;
        while ((await eventLog.lag(topic, 'storage-writer')) > 0 && Date.now() < until)
          await new Promise((r) => setTimeout(r, 10));
        const { rows } = await suite.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM device_data WHERE company_id = $1',
          [company],
        );
        expect(rows[0]!.n).toBe(total);
        expect(writer.stats.stored).toBe(total);
        // Transactions, each of at most maxRowsPerWrite envelopes: at least total / 10 of them.
        expect(writer.stats.writes).toBeGreaterThanOrEqual(total / 10);
        expect(writer.stats.writes).toBeLessThanOrEqual(writer.stats.batches);
      } finally {
        await writer.subscription.stop();
        await eventLog.close();
      }
    });
  });
});
