import { randomUUID } from 'node:crypto';
import { getDriver } from '@iot/codecs';
import { saveNetworkServer } from '@iot/db';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { aedesPublish } from '@iot/delivery';
import { startChirpstackStandIn } from '@iot/delivery/testing/chirpstack';
import { createDbJobKeyStore, InProcessJobQueue, notifyActionJob } from '@iot/jobs';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../index';
import {
  createAction,
  createFixture,
  payloadFor,
  silentLog,
  testConfig,
  waitFor,
} from '../test-support/fixtures';

const MOSQUITTO = 'mqtt://127.0.0.1:1883';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb('pglite');
});
afterAll(async () => {
  await db?.drop();
});

function randomDevEui(): string {
  return randomUUID().replace(/-/g, '').slice(0, 16);
}

describe('remote control action to a LoRaWAN device through ChirpStack v4 (gRPC stand-in)', () => {
  const API_TOKEN = 'chirpstack-api-token';

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
