import { forEachDb } from '@iot/db/testing';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice, type SeededDevice } from '../test-support/seed.js';
import { drained, eventually, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

forEachDb((suite) => {
  describe('embedded MQTT broker', () => {
    let ingest: TestIngest;
    let company: number;
    let url: string;
    beforeAll(async () => {
      ingest = await startTestIngest(suite.db, { mqtt: 'embedded', mqttPort: 0, http: false });
      company = await createCompany(suite.db);
      url = `mqtt://127.0.0.1:${ingest.service.mqttPort}`;
    });
    afterAll(async () => ingest.stop());

    const connect = (device: SeededDevice, password = device.token) =>
      mqtt.connectAsync(url, {
        username: device.uuid,
        password,
        reconnectPeriod: 0,
        clientId: `t-${device.uuid}`,
      });
    const stored = async (device: SeededDevice) =>
      (await suite.db.query('SELECT data FROM device_data WHERE device_id = $1', [device.id])).rows.map(
        (r) => r.data,
      );

    it('takes a JSON uplink on the device topic; the PUBACK means the log has it', async () => {
      const device = await createDevice(suite.db, company);
      const client = await connect(device);
      try {
        await client.publishAsync(
          `devices/${device.uuid}/up`,
          JSON.stringify({ temperature: 19.5, humidity: 40 }),
          { qos: 1 },
        );
        await drained(ingest.service);
        expect(await stored(device)).toEqual([{ temperature: 19.5, humidity: 40 }]);
      } finally {
        await client.endAsync();
      }
    });

    it('decodes a binary uplink with the device driver (nbiot_distance_sensor 01 08 44 3C 5C 04)', async () => {
      const device = await createDevice(suite.db, company, { driverId: 'nbiot_distance_sensor' });
      const client = await connect(device);
      try {
        await client.publishAsync(`devices/${device.uuid}/up`, Buffer.from('0108443C5C04', 'hex'), {
          qos: 1,
        });
        await drained(ingest.service);
        expect(await stored(device)).toEqual([
          { distance: 211.6, fill_level: 60, battery_level: 92, signal_strength: 4 },
        ]);
        const status = await suite.db.query(
          'SELECT battery_level, signal_strength FROM device_current WHERE device_id = $1',
          [device.id],
        );
        expect(status.rows[0]).toEqual({ battery_level: 92, signal_strength: 4 });
      } finally {
        await client.endAsync();
      }
    });

    it.each([
      ['a wrong password', 'wrong'],
      ['an unknown device', 'unknown'],
      ['a disposed device', 'disposed'],
    ])('refuses to connect with %s', async (_name, variant) => {
      const device = await createDevice(suite.db, company, {
        state: variant === 'disposed' ? 'disposed' : 'ok',
      });
      const who = variant === 'unknown' ? { ...device, uuid: crypto.randomUUID() } : device;
      const before = ingest.lines.length;
      await expect(connect(who, variant === 'wrong' ? 'not-the-token' : device.token)).rejects.toThrow(
        /Bad username or password/i,
      );
      expect(ingest.lines.slice(before).some((l) => l.msg === 'mqtt connect refused')).toBe(true);
    });

    it("refuses a publish to another device's topic and closes the connection", async () => {
      const device = await createDevice(suite.db, company);
      const other = await createDevice(suite.db, company);
      const client = await connect(device);
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      client.publish(`devices/${other.uuid}/up`, JSON.stringify({ temperature: 1 }), { qos: 1 }, () => {});
      await closed;
      await client.endAsync(true);
      await drained(ingest.service);
      expect(await stored(other)).toEqual([]);
      expect(
        ingest.lines.some(
          (l) =>
            l.msg === 'mqtt publish refused: not the device topic' && l.topic === `devices/${other.uuid}/up`,
        ),
      ).toBe(true);
    });

    it('refuses a payload over 64 KiB and closes the connection', async () => {
      const device = await createDevice(suite.db, company);
      const client = await connect(device);
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      client.publish(
        `devices/${device.uuid}/up`,
        JSON.stringify({ note: 'x'.repeat(70_000) }),
        { qos: 1 },
        () => {},
      );
      await closed;
      await client.endAsync(true);
      await drained(ingest.service);
      expect(await stored(device)).toEqual([]);
      expect(ingest.lines.some((l) => l.msg === 'mqtt uplink refused: payload too large')).toBe(true);
    });

    it('lets a device subscribe to its own down topic only', async () => {
      const device = await createDevice(suite.db, company);
      const other = await createDevice(suite.db, company);
      const client = await connect(device);
      try {
        const own = await client.subscribeAsync(`devices/${device.uuid}/down`, { qos: 1 });
        expect(own.map((g) => g.qos)).toEqual([1]);
        // A refused topic comes back as SUBACK 0x80, which mqtt.js reports as an error.
        for (const topic of [`devices/${other.uuid}/down`, 'devices/+/up'])
          await expect(client.subscribeAsync(topic, { qos: 1 })).rejects.toThrow(/Subscribe error/);
        expect(client.connected).toBe(true);
      } finally {
        await client.endAsync();
      }
    });

    it('counts a device as online when it publishes (status columns)', async () => {
      const device = await createDevice(suite.db, company);
      const client = await connect(device);
      try {
        await client.publishAsync(
          `devices/${device.uuid}/up`,
          JSON.stringify({ battery_voltage: 3.31, rssi: -95 }),
          { qos: 1 },
        );
        const row = await eventually(async () => {
          const { rows } = await suite.db.query<{
            is_active: boolean;
            battery_voltage: number;
            rssi: number;
            signal_strength: number;
          }>(
            `SELECT c.is_active, c.battery_voltage, c.rssi, c.signal_strength
             FROM devices d JOIN device_current c ON c.device_id = d.id WHERE d.id = $1`,
            [device.id],
          );
          return rows[0]?.is_active ? rows[0] : null;
        });
        expect(row).toEqual({ is_active: true, battery_voltage: 3.31, rssi: -95, signal_strength: 3 });
      } finally {
        await client.endAsync();
      }
    });
  });
});
