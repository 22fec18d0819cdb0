import { randomUUID } from 'node:crypto';
import { getDriver } from '@iot/codecs';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downlinkHelpers, MOSQUITTO, randomDevEui, waitFor } from './downlink-test-support';
import { aedesPublish, connectMqttDownlinks, type DownlinkPublish } from './downlink-transport';
import { sendDownlink } from './send-downlink';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb('pglite');
});
afterAll(async () => {
  await db?.drop();
});

const { device, rowsOf } = downlinkHelpers(() => db);

describe('sendDownlink on the machine’s Mosquitto (127.0.0.1:1883)', () => {
  // Each row: a spec action command, its parameters, the driver that supports it.
  it.each([
    ['reset_counter', { counter: 1 }, 'nbiot_button'],
    ['switch_digital_output', { output: 2, on: true }, 'srd_gateway'],
    ['switch_digital_output_timed', { output: 1, seconds: 90 }, 'srd_gateway'],
    ['switch_relay_output', { output: 1, on: false }, 'srd_gateway'],
    ['switch_relay_output_timed', { output: 2, seconds: 3600 }, 'srd_gateway'],
    ['switch_solenoid_valve', { valve: 3, on: true }, 'nbiot_soil_sensor'],
    ['reboot', {}, 'nbiot_weatherstation'],
    ['request_uplink', {}, 'nbiot_frost_sensor'],
    ['set_reporting_interval', { minutes: 60 }, 'nbiot_distance_sensor'],
  ])(
    '%s %j (%s): published on devices/<uuid>/down, row queued -> sent with the driver’s bytes',
    async (command, params, driverId) => {
      const target = await device(driverId);
      const expected = getDriver(driverId)!.encodeDownlink!({ command, params });
      const subscriber = await mqtt.connectAsync(MOSQUITTO, { clientId: `test-sub-${randomUUID()}` });
      const publisher = await connectMqttDownlinks(MOSQUITTO);
      try {
        const received: Buffer[] = [];
        subscriber.on('message', (_topic, payload) => received.push(payload));
        await subscriber.subscribeAsync(`devices/${target.uuid}/down`, { qos: 1 });
        const sent = await sendDownlink({
          db,
          device: target,
          command,
          params,
          publish: publisher.publish,
          userId: null,
        });
        expect(sent.topic).toBe(`devices/${target.uuid}/down`);
        await waitFor(() => received.length === 1, 'the downlink at the subscriber');
        expect(received[0]!.toString('hex')).toBe(Buffer.from(expected.bytes).toString('hex'));
        expect(await rowsOf(target.id)).toEqual([
          {
            command,
            state: 'sent',
            encoded: Buffer.from(expected.bytes).toString('hex'),
            fport: expected.fPort,
            error: null,
            attempts: 1,
            sent_at: expect.any(Date),
          },
        ]);
      } finally {
        await subscriber.endAsync();
        await publisher.close();
      }
    },
  );
});

describe('sendDownlink on an embedded aedes broker', () => {
  it('publishes through the broker instance (no network hop) and records it sent', async () => {
    const broker = await Aedes.createBroker();
    try {
      const target = await device('srd_gateway');
      const received: Buffer[] = [];
      await new Promise<void>((resolve) =>
        broker.subscribe(
          `devices/${target.uuid}/down`,
          (packet, done) => {
            received.push(Buffer.from(packet.payload));
            done();
          },
          resolve,
        ),
      );
      // The row exists as queued, with its bytes, while the broker is being handed the message.
      const statesDuringPublish: unknown[] = [];
      const publish: DownlinkPublish = async (topic, payload) => {
        statesDuringPublish.push(...(await rowsOf(target.id)).map((r) => [r.state, r.encoded, r.sent_at]));
        await aedesPublish(broker)(topic, payload);
      };
      await sendDownlink({
        db,
        device: target,
        command: 'set_reporting_interval',
        params: { minutes: 60 },
        publish,
      });
      expect(statesDuringPublish).toEqual([['queued', '0109003c', null]]);
      await waitFor(() => received.length === 1, 'the downlink');
      // README of @iot/codecs: set_reporting_interval { minutes: 60 } -> 01 09 00 3C
      expect(received[0]!.toString('hex')).toBe('0109003c');
      expect((await rowsOf(target.id))[0]).toMatchObject({ state: 'sent', encoded: '0109003c' });
    } finally {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    }
  });
});

describe('downlink errors (spec section 8, codes 92 to 95)', () => {
  const publishNothing: DownlinkPublish = async () => {};
  it.each([
    ['an unknown command', 'srd_gateway', 'self_destruct', {}, 92],
    ['a device without a driver', null, 'reboot', {}, 93],
    [
      'a command the driver does not support',
      'nbiot_button',
      'switch_relay_output',
      { output: 1, on: true },
      93,
    ],
    ['a parameter out of range', 'srd_gateway', 'switch_relay_output', { output: 3, on: true }, 94],
    ['a missing parameter', 'srd_gateway', 'set_reporting_interval', {}, 94],
  ])('refuses %s with code %s and records nothing', async (_name, driverId, command, params, code) => {
    const target = await device(driverId);
    await expect(
      sendDownlink({ db, device: target, command, params, publish: publishNothing }),
    ).rejects.toMatchObject({ code });
    expect(await rowsOf(target.id)).toEqual([]);
  });

  it('refuses a LoRaWAN device with 93 while its company has no network server, and records nothing', async () => {
    const target = await device('srd_gateway', randomDevEui());
    await expect(
      sendDownlink({ db, device: target, command: 'reboot', params: {}, publish: publishNothing }),
    ).rejects.toMatchObject({ code: 93 });
    expect(await rowsOf(target.id)).toEqual([]);
  });

  it('records a broker failure as failed with the error, code 95', async () => {
    const target = await device('srd_gateway');
    const failing: DownlinkPublish = async () => {
      throw new Error('connection refused');
    };
    await expect(
      sendDownlink({ db, device: target, command: 'reboot', params: {}, publish: failing }),
    ).rejects.toMatchObject({ code: 95 });
    expect(await rowsOf(target.id)).toEqual([
      {
        command: 'reboot',
        state: 'failed',
        encoded: '0107',
        fport: 10,
        error: 'connection refused',
        attempts: 1,
        sent_at: null,
      },
    ]);
  });
});
