import { randomUUID } from 'node:crypto';
import { getDriver } from '@iot/codecs';
import { saveNetworkServer, saveTtsDownlinkRoute } from '@iot/db';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { createDbJobKeyStore, InProcessJobQueue } from '@iot/jobs';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyActionJob, startNotifier } from '../index';
import { startChirpstackStandIn } from '../test-support/chirpstack-server';
import {
  createAction,
  createFixture,
  payloadFor,
  silentLog,
  testConfig,
  waitFor,
} from '../test-support/fixtures';
import { startTtsStandIn } from '../test-support/tts-server';
import { aedesPublish, connectMqttDownlinks, type DownlinkPublish } from './downlink-transport';
import { type DownlinkDevice, loadDownlinkDevice, sendDownlink } from './send-downlink';

const MOSQUITTO = 'mqtt://127.0.0.1:1883';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb('pglite');
});
afterAll(async () => {
  await db?.drop();
});

async function device(driverId: string | null, devEui: string | null = null): Promise<DownlinkDevice> {
  const fixture = await createFixture(db, { driverId });
  if (devEui) await db.query('UPDATE devices SET dev_eui = $2 WHERE id = $1', [fixture.deviceId, devEui]);
  const loaded = await loadDownlinkDevice(db, fixture.companyId, fixture.deviceId);
  return loaded!;
}

/** The error a reboot command to `target` fails with (over no MQTT transport). */
function rebootFailure(
  target: DownlinkDevice,
  options: { allowPrivateTargets?: boolean } = {},
): Promise<unknown> {
  return sendDownlink({
    db,
    device: target,
    command: 'reboot',
    params: {},
    publish: undefined,
    ...options,
  }).catch((e: unknown) => e);
}

function randomDevEui(): string {
  return randomUUID().replace(/-/g, '').slice(0, 16);
}

async function rowsOf(deviceId: number) {
  const { rows } = await db.query<{
    command: string;
    state: string;
    encoded: Uint8Array | null;
    fport: number;
    error: string | null;
    attempts: number;
    sent_at: Date | null;
  }>(
    'SELECT command, state, encoded, fport, error, attempts, sent_at FROM downlinks WHERE device_id = $1 ORDER BY id',
    [deviceId],
  );
  return rows.map((r) => ({ ...r, encoded: r.encoded ? Buffer.from(r.encoded).toString('hex') : null }));
}

async function referenceOf(deviceId: number) {
  const { rows } = await db.query<{ reference: string | null }>(
    'SELECT reference FROM downlinks WHERE device_id = $1',
    [deviceId],
  );
  return rows.map((r) => r.reference);
}

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

describe('LoRaWAN downlinks queued at ChirpStack v4 (gRPC stand-in, see test-support)', () => {
  const API_TOKEN = 'chirpstack-api-token';

  async function loraDevice(driverId: string, apiUrl: string | null, apiToken = API_TOKEN) {
    const target = await device(driverId, randomDevEui());
    if (apiUrl) {
      await saveNetworkServer(db, target.companyId, {
        kind: 'chirpstack',
        apiUrl,
        apiToken,
        updatedBy: null,
      });
    }
    return target;
  }

  it('queues the driver’s bytes for the DevEUI with the company’s token; row sent with ChirpStack’s item id', async () => {
    const published: string[] = [];
    const publishSpy: DownlinkPublish = async (topic) => {
      published.push(topic);
    };
    const target = await loraDevice('srd_gateway', null);
    const chirpstack = await startChirpstackStandIn({ apiToken: API_TOKEN, devEuis: [target.devEui!] });
    try {
      await saveNetworkServer(db, target.companyId, {
        kind: 'chirpstack',
        apiUrl: chirpstack.url,
        apiToken: API_TOKEN,
        updatedBy: null,
      });
      const sent = await sendDownlink({
        db,
        device: target,
        command: 'switch_relay_output',
        params: { output: 1, on: true },
        publish: publishSpy,
        // The stand-in listens on 127.0.0.1, which only HTTP_ACTIONS_ALLOW_PRIVATE lets the notifier reach.
        allowPrivateTargets: true,
      });
      // srd_gateway: 01 04 | relay 01 | on 01, port 10 (README of @iot/codecs).
      expect(chirpstack.queued).toEqual([
        {
          id: expect.any(String),
          devEui: target.devEui,
          fPort: 10,
          // Confirmed: ChirpStack's ack event then says whether the relay board got it.
          confirmed: true,
          data: '01040101',
          authorization: `Bearer ${API_TOKEN}`,
        },
      ]);
      expect(sent).toMatchObject({ via: 'chirpstack', topic: null, reference: chirpstack.queued[0]!.id });
      expect(published).toEqual([]);
      expect(await rowsOf(target.id)).toEqual([
        {
          command: 'switch_relay_output',
          state: 'sent',
          encoded: '01040101',
          fport: 10,
          error: null,
          attempts: 1,
          sent_at: expect.any(Date),
        },
      ]);
      expect(await referenceOf(target.id)).toEqual([chirpstack.queued[0]!.id]);
    } finally {
      await chirpstack.close();
    }
  });

  it('records a refused token as failed, code 95 marked permanent', async () => {
    const chirpstack = await startChirpstackStandIn({ apiToken: API_TOKEN, devEuis: [] });
    try {
      const target = await loraDevice('srd_gateway', chirpstack.url, 'a-revoked-token');
      const error = await rebootFailure(target, { allowPrivateTargets: true });
      expect(error).toMatchObject({ code: 95, details: { permanent: true } });
      expect(chirpstack.queued).toEqual([]);
      const [row] = await rowsOf(target.id);
      expect(row).toMatchObject({ state: 'failed', encoded: '0107', sent_at: null });
      expect(row!.error).toMatch(/^ChirpStack UNAUTHENTICATED: Invalid token/);
    } finally {
      await chirpstack.close();
    }
  });

  it('refuses a ChirpStack address on a private network unless HTTP_ACTIONS_ALLOW_PRIVATE: 95, permanent', async () => {
    const chirpstack = await startChirpstackStandIn({ apiToken: API_TOKEN, devEuis: [] });
    try {
      const target = await loraDevice('srd_gateway', chirpstack.url);
      const error = await rebootFailure(target);
      expect(error).toMatchObject({ code: 95, details: { permanent: true } });
      expect((await rowsOf(target.id))[0]).toMatchObject({
        state: 'failed',
        error: expect.stringMatching(/127\.0\.0\.1, not a public address/),
      });
      expect(chirpstack.queued).toEqual([]);
    } finally {
      await chirpstack.close();
    }
  });

  it('records an unreachable network server as failed, code 95 worth a retry', async () => {
    const chirpstack = await startChirpstackStandIn({ apiToken: API_TOKEN, devEuis: [] });
    const url = chirpstack.url;
    await chirpstack.close();
    const target = await loraDevice('srd_gateway', url);
    const error = await rebootFailure(target, { allowPrivateTargets: true });
    expect(error).toMatchObject({ code: 95, details: { permanent: false } });
    expect((await rowsOf(target.id))[0]).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/UNAVAILABLE/),
    });
  });

  /**
   * A notifier, a LoRaWAN device of `driverId` whose company's ChirpStack knows it (or not), and a
   * remote control action to it, enqueued; `check` runs while all of it is up.
   */
  async function runLoraAction(
    setup: {
      driverId: string;
      known: boolean;
      command: string;
      commandParams?: Record<string, unknown>;
      /** ChirpStack answers the first this many enqueues UNAVAILABLE; the job then retries every 30 ms. */
      unavailableFirst?: number;
    },
    check: (run: {
      devEui: string;
      actionId: number;
      queue: InProcessJobQueue;
      chirpstack: Awaited<ReturnType<typeof startChirpstackStandIn>>;
    }) => Promise<void>,
  ) {
    const queue = new InProcessJobQueue({ keys: createDbJobKeyStore(db) });
    const notifier = await startNotifier({
      config: testConfig({ HTTP_ACTIONS_ALLOW_PRIVATE: 'true' }),
      db,
      log: silentLog,
      queue,
      ...(setup.unavailableFirst
        ? { job: notifyActionJob({ timeoutMs: 5_000, retry: { attempts: 5, delayMs: 30 } }) }
        : {}),
    });
    const fixture = await createFixture(db, { driverId: setup.driverId });
    const devEui = randomDevEui();
    await db.query('UPDATE devices SET dev_eui = $2 WHERE id = $1', [fixture.deviceId, devEui]);
    const chirpstack = await startChirpstackStandIn({
      apiToken: API_TOKEN,
      devEuis: setup.known ? [devEui] : [],
      unavailableFirst: setup.unavailableFirst ?? 0,
    });
    try {
      await saveNetworkServer(db, fixture.companyId, {
        kind: 'chirpstack',
        apiUrl: chirpstack.url,
        apiToken: API_TOKEN,
        updatedBy: null,
      });
      const actionId = await createAction(db, fixture, {
        type: 'remote_control',
        targetDeviceId: fixture.deviceId,
        command: setup.command,
        ...(setup.commandParams ? { commandParams: setup.commandParams } : {}),
      });
      await notifier.enqueue(payloadFor(fixture, actionId));
      await check({ devEui, actionId, queue, chirpstack });
    } finally {
      await notifier.stop();
      await queue.close();
      await chirpstack.close();
    }
  }

  async function logRows(actionId: number) {
    const { rows } = await db.query<{
      status: string;
      error: string | null;
      details: Record<string, unknown>;
    }>('SELECT status, error, details FROM notification_log WHERE rule_action_id = $1', [actionId]);
    return rows;
  }

  it('a rule’s remote control action reaches a LoRaWAN valve through ChirpStack, logged with its item id', async () => {
    const params = { valve: 1, on: true };
    await runLoraAction(
      { driverId: 'nbiot_soil_sensor', known: true, command: 'switch_solenoid_valve', commandParams: params },
      async ({ devEui, actionId, chirpstack }) => {
        await waitFor(async () => (await logRows(actionId)).length > 0, 'the log row');
        const expected = getDriver('nbiot_soil_sensor')!.encodeDownlink!({
          command: 'switch_solenoid_valve',
          params,
        });
        expect(chirpstack.queued).toHaveLength(1);
        expect(chirpstack.queued[0]).toMatchObject({
          devEui,
          fPort: expected.fPort,
          data: Buffer.from(expected.bytes).toString('hex'),
        });
        expect((await logRows(actionId))[0]).toMatchObject({
          status: 'sent',
          details: { via: 'chirpstack', networkServerReference: chirpstack.queued[0]!.id },
        });
      },
    );
  });

  it('a rule’s action that ChirpStack could not take at first is one command in the history, its attempts counted', async () => {
    await runLoraAction(
      { driverId: 'srd_gateway', known: true, command: 'reboot', unavailableFirst: 2 },
      async ({ actionId, chirpstack }) => {
        await waitFor(
          async () => (await logRows(actionId)).some((r) => r.status === 'sent'),
          'the sent attempt',
        );
        expect((await logRows(actionId)).map((r) => r.status)).toEqual(['failed', 'failed', 'sent']);
        const { rows } = await db.query<{
          state: string;
          attempts: number;
          reference: string;
          error: string | null;
        }>(
          `SELECT state, attempts, reference, error FROM downlinks
            WHERE job_key = (SELECT idempotency_key FROM notification_log WHERE rule_action_id = $1 LIMIT 1)`,
          [actionId],
        );
        expect(rows).toEqual([
          { state: 'sent', attempts: 3, reference: chirpstack.queued[0]!.id, error: null },
        ]);
        expect(chirpstack.queued).toHaveLength(1);
      },
    );
  });

  it('a rule’s action refused by ChirpStack is not retried: failed once, final, no item queued', async () => {
    // ChirpStack does not know the device: NOT_FOUND, which no retry changes.
    await runLoraAction(
      { driverId: 'srd_gateway', known: false, command: 'reboot' },
      async ({ actionId, queue, chirpstack }) => {
        await waitFor(async () => (await queue.deadLetters('notify.action')).length > 0, 'the dead letter');
        const rows = await logRows(actionId);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          status: 'failed',
          details: { attempt: 1, final: true, permanent: true },
        });
        expect(rows[0]!.error).toMatch(/^95 .*: ChirpStack NOT_FOUND/);
        expect(chirpstack.queued).toEqual([]);
        // The company is told, naming the command and the device it was for (migration 0024).
        const { rows: messages } = await db.query<{ kind: string; params: Record<string, unknown> }>(
          "SELECT kind, params FROM messages WHERE params->>'action_id' = $1",
          [String(actionId)],
        );
        expect(messages).toEqual([
          {
            kind: 'action_failed',
            params: expect.objectContaining({
              channel: 'remote_control',
              command: 'reboot',
              recipient: 'Tank 7', // the target device's name
              attempts: 1,
              error: expect.stringMatching(/ChirpStack NOT_FOUND/),
            }),
          },
        ]);
      },
    );
  });
});

describe('LoRaWAN downlinks pushed to The Things Stack v3 (local HTTP server in its place)', () => {
  const PATH = '/api/v3/as/applications/farm/webhooks/iot/devices/valve-7/down/push';

  async function ttsDevice(driverId: string, pushUrl: string) {
    const target = await device(driverId, randomDevEui());
    await saveTtsDownlinkRoute(db, target.companyId, target.id, { pushUrl, apiKey: 'NNSXS.TEST' });
    return target;
  }

  it('pushes the driver’s bytes to the device’s queue with its key, ahead of the company’s ChirpStack', async () => {
    const tts = await startTtsStandIn();
    const chirpstack = await startChirpstackStandIn({ apiToken: 't', devEuis: [] });
    try {
      const target = await ttsDevice('srd_gateway', `${tts.base}${PATH}`);
      await saveNetworkServer(db, target.companyId, {
        kind: 'chirpstack',
        apiUrl: chirpstack.url,
        apiToken: 't',
        updatedBy: null,
      });
      const sent = await sendDownlink({
        db,
        device: target,
        command: 'switch_relay_output',
        params: { output: 2, on: true },
        publish: undefined,
        allowPrivateTargets: true,
      });
      expect(tts.pushed).toEqual([
        {
          path: PATH,
          authorization: 'Bearer NNSXS.TEST',
          // 01 04 02 01 as base64, port 10.
          body: {
            downlinks: [
              {
                f_port: 10,
                frm_payload: Buffer.from('01040201', 'hex').toString('base64'),
                priority: 'NORMAL',
                confirmed: true,
                // TTS names no queue item: ours comes back in the downlink's ack or failed message.
                correlation_ids: [expect.stringMatching(/^iot:downlink:[0-9a-f-]{36}$/)],
              },
            ],
          },
        },
      ]);
      expect(chirpstack.queued).toEqual([]);
      const correlationId = tts.pushed[0]!.body.downlinks[0]!.correlation_ids![0];
      expect(sent).toMatchObject({ via: 'tts', topic: null, reference: correlationId });
      expect((await rowsOf(target.id))[0]).toMatchObject({ state: 'sent', encoded: '01040201', error: null });
      expect(await referenceOf(target.id)).toEqual([correlationId]);
    } finally {
      await tts.close();
      await chirpstack.close();
    }
  });

  it('refuses a push URL on a private address unless HTTP_ACTIONS_ALLOW_PRIVATE: 95, permanent, nothing sent', async () => {
    const tts = await startTtsStandIn();
    try {
      const target = await ttsDevice('srd_gateway', `${tts.base}${PATH}`);
      const error = await rebootFailure(target);
      expect(error).toMatchObject({ code: 95, details: { permanent: true } });
      expect(tts.pushed).toEqual([]);
      expect((await rowsOf(target.id))[0]).toMatchObject({ state: 'failed' });
    } finally {
      await tts.close();
    }
  });

  it.each([
    [403, true],
    [404, true],
    [429, false],
    [503, false],
  ])('records TTS answering %i as failed, 95, permanent %s', async (status, permanent) => {
    const tts = await startTtsStandIn(status);
    try {
      const target = await ttsDevice('srd_gateway', `${tts.base}${PATH}`);
      const error = await rebootFailure(target, { allowPrivateTargets: true });
      expect(error).toMatchObject({ code: 95, details: { permanent } });
      expect((await rowsOf(target.id))[0]).toMatchObject({
        state: 'failed',
        error: `The Things Stack answered ${status}`,
      });
    } finally {
      await tts.close();
    }
  });
});

describe('remote control action through the notifier', () => {
  it('connects an mqtt.js client to MQTT_URL in the distributed profile and publishes there', async () => {
    const queue = new InProcessJobQueue({ keys: createDbJobKeyStore(db) });
    const notifier = await startNotifier({
      // DATABASE_URL only satisfies the distributed profile's validation; the test hands in its database.
      config: testConfig({
        PROFILE: 'distributed',
        DATABASE_URL: 'postgres://unused@127.0.0.1:5432/unused',
        MQTT_URL: MOSQUITTO,
      }),
      db,
      log: silentLog,
      queue,
    });
    const subscriber = await mqtt.connectAsync(MOSQUITTO, { clientId: `test-sub-${randomUUID()}` });
    try {
      const fixture = await createFixture(db, { driverId: 'nbiot_weatherstation' });
      const received: Buffer[] = [];
      subscriber.on('message', (_topic, payload) => received.push(payload));
      await subscriber.subscribeAsync(`devices/${fixture.deviceUuid}/down`, { qos: 1 });
      const actionId = await createAction(db, fixture, {
        type: 'remote_control',
        targetDeviceId: fixture.deviceId,
        command: 'request_uplink',
      });
      await notifier.enqueue(payloadFor(fixture, actionId));
      await waitFor(() => received.length === 1, 'the downlink on Mosquitto');
      expect(received[0]!.toString('hex')).toBe('0108');
    } finally {
      await subscriber.endAsync();
      await notifier.stop();
      await queue.close();
    }
  });

  it('sends the rule’s command to the target device over the injected publish and logs it', async () => {
    const broker = await Aedes.createBroker();
    const queue = new InProcessJobQueue({ keys: createDbJobKeyStore(db) });
    const notifier = await startNotifier({
      config: testConfig(),
      db,
      log: silentLog,
      queue,
      publishDownlink: aedesPublish(broker),
    });
    try {
      const fixture = await createFixture(db, { driverId: 'srd_gateway' });
      const received: Buffer[] = [];
      await new Promise<void>((resolve) =>
        broker.subscribe(
          `devices/${fixture.deviceUuid}/down`,
          (packet, done) => {
            received.push(Buffer.from(packet.payload));
            done();
          },
          resolve,
        ),
      );
      const actionId = await createAction(db, fixture, {
        type: 'remote_control',
        targetDeviceId: fixture.deviceId,
        command: 'switch_relay_output_timed',
        commandParams: { output: 2, seconds: 90 },
      });
      await notifier.enqueue(payloadFor(fixture, actionId));
      await waitFor(() => received.length === 1, 'the downlink');
      // 01 05 | output 02 | seconds 0000005A
      expect(received[0]!.toString('hex')).toBe('0105020000005a');
      await waitFor(
        async () =>
          (
            await db.query("SELECT 1 FROM notification_log WHERE rule_action_id = $1 AND status = 'sent'", [
              actionId,
            ])
          ).rows.length === 1,
        'the log row',
      );
      const { rows } = await db.query<{ rule_id: number; state: string }>(
        'SELECT rule_id, state FROM downlinks WHERE device_id = $1',
        [fixture.deviceId],
      );
      expect(rows).toEqual([{ rule_id: fixture.ruleId, state: 'sent' }]);
    } finally {
      await notifier.stop();
      await queue.close();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    }
  });
});
