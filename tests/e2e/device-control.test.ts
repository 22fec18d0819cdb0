/**
 * The one-process platform's wiring between the API and ingest: a device token issued through the API
 * works on the embedded broker at once (the API drops the device from ingest's cache), the old token stops
 * working at once, and a command sent from the console reaches the device as a downlink over that broker.
 */
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api-session.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';

let platform: TestPlatform;
let session: ApiSession;
let device: { id: number; uuid: string };

beforeAll(async () => {
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0' });
  session = new ApiSession(platform.url);
  expect((await session.login('main@demo.test', 'DemoPass#2026')).status).toBe(200);
  const { rows } = await platform.db.query<{ id: number; uuid: string }>(
    `SELECT id, uuid FROM devices WHERE company_id = 2 AND device_type = 'nbiot_soil_sensor' ORDER BY id LIMIT 1`,
  );
  device = rows[0]!;
});
afterAll(() => platform?.stop());

async function rotateToken(): Promise<string> {
  const answer = await session.call<{ token: string }>(
    'POST',
    `/api/v1/core/devices/${device.id}/credentials`,
  );
  expect(answer.status).toBe(200);
  return answer.body.payload!.token;
}

/** Connects as the device; resolves with the client, or rejects with the broker's refusal. */
function connectAsDevice(password: string): Promise<mqtt.MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${platform.mqttPort}`, {
      username: device.uuid,
      password,
      clientId: `device-${device.uuid}-${Math.random().toString(16).slice(2)}`,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    client.once('connect', () => resolve(client));
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
}

describe('API and ingest in one process', () => {
  it('lets a freshly issued token in at once and shuts the previous one out at once', async () => {
    const first = await rotateToken();
    const client = await connectAsDevice(first);
    await client.endAsync();

    const second = await rotateToken();
    await expect(connectAsDevice(first)).rejects.toThrow(/bad user ?name or password|Not authorized/i);
    const again = await connectAsDevice(second);
    await again.endAsync();
  });

  it('delivers a console command to the device as a downlink over the embedded broker', async () => {
    const client = await connectAsDevice(await rotateToken());
    await client.subscribeAsync(`devices/${device.uuid}/down`, { qos: 1 });
    const received = new Promise<Buffer>((resolve) =>
      client.once('message', (_topic, payload) => resolve(payload)),
    );

    const sent = await session.call<{ state: string; encoded: string }>(
      'POST',
      `/api/v1/core/devices/${device.id}/downlink`,
      { command: 'reboot', params: {} },
    );
    expect(sent.status).toBe(200);
    expect(sent.body.payload?.state).toBe('sent');
    const payload = await received;
    expect(payload.toString('hex')).toBe(sent.body.payload?.encoded);
    await client.endAsync();

    const { rows } = await platform.db.query<{ state: string; command: string }>(
      'SELECT state, command FROM downlinks WHERE device_id = $1 ORDER BY id DESC LIMIT 1',
      [device.id],
    );
    expect(rows[0]).toEqual({ state: 'sent', command: 'reboot' });
  });
});
