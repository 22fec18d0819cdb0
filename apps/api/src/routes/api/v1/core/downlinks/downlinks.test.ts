import { randomUUID } from 'node:crypto';
import { getDriver } from '@iot/codecs';
import { loadConfig } from '@iot/config';
import { forEachDb } from '@iot/db/testing';
import { startChirpstackStandIn } from '@iot/delivery/testing/chirpstack';
import type { FastifyInstance } from 'fastify';
import mqtt from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../../../app';
import { buildTestApp } from '../../../../../test/app';
import { TestClient } from '../../../../../test/client';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam, PASSWORD } from '../../../../../test/fixtures';

// The machine's Mosquitto (common rules: real services, no stand-ins).
const MOSQUITTO = 'mqtt://127.0.0.1:1883';

forEachDb((suite) => {
  /** Distributed profile: the API connects to MQTT_URL itself on the first downlink. */
  let app: FastifyInstance;
  /** Embedded profile without a broker handed in: every downlink fails to send (95). */
  let noBroker: FastifyInstance;

  beforeAll(async () => {
    const config = {
      ...loadConfig({
        LOG_LEVEL: 'silent',
        PROFILE: 'distributed',
        MQTT_URL: MOSQUITTO,
        DATABASE_URL: 'postgres://unused',
        // The ChirpStack stand-in listens on 127.0.0.1.
        HTTP_ACTIONS_ALLOW_PRIVATE: 'true',
      }),
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    };
    app = buildApp({ config, db: suite.db, version: 'test' });
    noBroker = buildTestApp(suite.db);
    await Promise.all([app.ready(), noBroker.ready()]);
  });
  afterAll(async () => {
    await app?.close();
    await noBroker?.close();
  });

  async function signIn(email: string, on: FastifyInstance = app) {
    const client = new TestClient(on);
    await client.login(email, PASSWORD);
    return client;
  }

  async function downlinkRows(deviceId: number) {
    const { rows } = await suite.db.query<Record<string, unknown>>(
      `SELECT company_id::int AS company_id, command, payload, encode(encoded, 'hex') AS encoded, fport::int AS fport,
              state, created_by::int AS created_by, error IS NOT NULL AS has_error
         FROM downlinks WHERE device_id = $1 ORDER BY id`,
      [deviceId],
    );
    return rows;
  }

  it('sends a command over MQTT, records the downlinks row as sent and lists it with its state', async () => {
    const team = await createTeam(suite.db);
    const device = await createDevice(suite.db, team.company.id, { driver_id: 'srd_gateway' });
    const expected = getDriver('srd_gateway')!.encodeDownlink!({
      command: 'switch_relay_output',
      params: { output: 2, on: true },
    });
    const hex = Buffer.from(expected.bytes).toString('hex');
    const subscriber = await mqtt.connectAsync(MOSQUITTO, { clientId: `api-test-${randomUUID()}` });
    try {
      const received = new Promise<Buffer>((resolve) =>
        subscriber.on('message', (_t, payload) => resolve(payload)),
      );
      await subscriber.subscribeAsync(`devices/${device.uuid}/down`, { qos: 1 });
      const client = await signIn(team.admin.email);
      const res = await client.post(`/api/v1/core/devices/${device.id}/downlink`, {
        command: 'switch_relay_output',
        params: { output: 2, on: true },
      });
      expect(res.status).toBe(200);
      expect(res.body.payload).toMatchObject({
        state: 'sent',
        command: 'switch_relay_output',
        params: { output: 2, on: true },
        fport: expected.fPort,
        encoded: hex,
        topic: `devices/${device.uuid}/down`,
      });
      expect((await received).toString('hex')).toBe(hex);
      expect(await downlinkRows(device.id)).toEqual([
        {
          company_id: team.company.id,
          command: 'switch_relay_output',
          payload: { output: 2, on: true },
          encoded: hex,
          fport: expected.fPort,
          state: 'sent',
          created_by: team.admin.id,
          has_error: false,
        },
      ]);
      const plain = await signIn(team.plain.email);
      const history = await plain.get(`/api/v1/core/devices/${device.id}/downlinks`);
      expect(history.body.payload).toMatchObject([
        {
          id: res.body.payload.id,
          state: 'sent',
          command: 'switch_relay_output',
          created_by: team.admin.id,
          encoded: hex,
        },
      ]);
    } finally {
      await subscriber.endAsync();
    }
  });

  // [case, driver, dev_eui, body, status, code]
  const REFUSED: [string, string | null, string | null, Record<string, unknown>, number, number][] = [
    ['92 unknown command', 'srd_gateway', null, { command: 'self_destruct' }, 422, 92],
    [
      '94 relay output 3 (relays 1..2)',
      'srd_gateway',
      null,
      { command: 'switch_relay_output', params: { output: 3, on: true } },
      422,
      94,
    ],
    ['94 missing parameter', 'nbiot_distance_sensor', null, { command: 'set_reporting_interval' }, 422, 94],
    [
      '94 interval above a week',
      'nbiot_distance_sensor',
      null,
      { command: 'set_reporting_interval', params: { minutes: 10_081 } },
      422,
      94,
    ],
    ['93 device without driver', null, null, { command: 'reboot' }, 422, 93],
    [
      '93 LoRaWAN device, no network server',
      'srd_gateway',
      '70b3d57ed0000001',
      { command: 'reboot' },
      422,
      93,
    ],
  ];
  it.each(REFUSED)('refuses %s and records nothing', async (_case, driver, devEui, body, status, code) => {
    const team = await createTeam(suite.db);
    const device = await createDevice(suite.db, team.company.id, { driver_id: driver, dev_eui: devEui });
    const client = await signIn(team.main.email);
    const res = await client.post(`/api/v1/core/devices/${device.id}/downlink`, body);
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(await downlinkRows(device.id)).toEqual([]);
  });

  it('queues a LoRaWAN device’s command at the network server the company set, and lists it with its item id', async () => {
    const team = await createTeam(suite.db);
    const devEui = randomUUID().replace(/-/g, '').slice(0, 16);
    const device = await createDevice(suite.db, team.company.id, {
      driver_id: 'srd_gateway',
      dev_eui: devEui,
    });
    const chirpstack = await startChirpstackStandIn({ apiToken: 'lns-token', devEuis: [devEui] });
    try {
      const client = await signIn(team.main.email);
      const server = await client.put('/api/v1/core/integrations/network-server', {
        kind: 'chirpstack',
        api_url: chirpstack.url,
        api_token: 'lns-token',
      });
      expect(server.status).toBe(200);
      const res = await client.post(`/api/v1/core/devices/${device.id}/downlink`, {
        command: 'switch_relay_output',
        params: { output: 2, on: false },
      });
      expect(res.status).toBe(200);
      expect(chirpstack.queued).toEqual([
        expect.objectContaining({ devEui, fPort: 10, data: '01040200', authorization: 'Bearer lns-token' }),
      ]);
      const itemId = chirpstack.queued[0]!.id;
      expect(res.body.payload).toMatchObject({
        state: 'sent',
        encoded: '01040200',
        via: 'chirpstack',
        topic: null,
        reference: itemId,
      });
      const history = await client.get(`/api/v1/core/devices/${device.id}/downlinks`);
      expect(history.body.payload).toMatchObject([
        { state: 'sent', reference: itemId, created_by: team.main.id },
      ]);
    } finally {
      await chirpstack.close();
    }
  });

  it('answers 95 and keeps the row as failed when no broker takes it', async () => {
    const team = await createTeam(suite.db);
    const device = await createDevice(suite.db, team.company.id, { driver_id: 'nbiot_weatherstation' });
    const client = await signIn(team.main.email, noBroker);
    const res = await client.post(`/api/v1/core/devices/${device.id}/downlink`, { command: 'reboot' });
    expect([res.status, res.body.code]).toEqual([502, 95]);
    expect(await downlinkRows(device.id)).toMatchObject([
      { command: 'reboot', state: 'failed', has_error: true },
    ]);
    const history = await client.get(`/api/v1/core/devices/${device.id}/downlinks`);
    expect(history.body.payload).toMatchObject([{ state: 'failed', attempts: 1 }]);
  });

  it('is for managers (90003) of the device company (10); CSRF enforced; nothing recorded', async () => {
    const team = await createTeam(suite.db);
    const device = await createDevice(suite.db, team.company.id, { driver_id: 'nbiot_weatherstation' });
    const plain = await signIn(team.plain.email);
    expect(
      (await plain.post(`/api/v1/core/devices/${device.id}/downlink`, { command: 'reboot' })).body.code,
    ).toBe(90003);
    const stranger = await createTeam(suite.db);
    const other = await signIn(stranger.main.email);
    const foreign = await other.post(`/api/v1/core/devices/${device.id}/downlink`, { command: 'reboot' });
    expect([foreign.status, foreign.body.code]).toEqual([404, 10]);
    const list = await other.get(`/api/v1/core/devices/${device.id}/downlinks`);
    expect([list.status, list.body.code]).toEqual([404, 10]);
    const main = await signIn(team.main.email);
    const noCsrf = await main.post(
      `/api/v1/core/devices/${device.id}/downlink`,
      { command: 'reboot' },
      { csrf: false },
    );
    expect(noCsrf.body.code).toBe(77);
    expect(await downlinkRows(device.id)).toEqual([]);
  });
});
