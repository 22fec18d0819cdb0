/**
 * The demo's cold room walkthrough with a LoRaWAN cooling controller behind The Things Stack v3, through the
 * whole embedded platform: the controller's TTS webhook uplink (with the downlink headers a webhook with a
 * downlink API key sends) tells ingest where its commands go; a 9 °C uplink of the cold room fires the
 * demo rule, whose remote control action is pushed to that queue, once, with the webhook's key. The Things
 * Stack is a local HTTP server answering like its webhook downlink API (it is not installed here), reached
 * on 127.0.0.1 because the platform runs with HTTP_ACTIONS_ALLOW_PRIVATE. The command goes confirmed,
 * with a correlation id of ours; the webhook's downlink_ack message, which carries it back, settles it as
 * acknowledged.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { startTtsStandIn, type TtsStandIn } from '@iot/delivery/testing/tts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findColdRoom, issueDeviceToken, notificationStatuses, uplinkPoster } from '../support/cold-room.js';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.js';
import { waitFor } from '../support/wait-for.js';

const DEV_EUI = '70b3d57ed00c0011';
const PUSH_PATH = '/api/v3/as/applications/demo-farm/webhooks/iot-platform/devices/cooling-1/down/push';

let platform: TestPlatform;
let tts: TtsStandIn;

beforeAll(async () => {
  tts = await startTtsStandIn();
  platform = await startTestPlatform({ SIMULATE_DEVICES: '0', HTTP_ACTIONS_ALLOW_PRIVATE: 'true' });
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await tts?.close();
});

describe('LoRaWAN downlinks through The Things Stack', () => {
  it('a rule’s relay command reaches a TTS device through the queue its webhook named, once, and is acknowledged', async () => {
    const { db } = platform;
    const demo = await findColdRoom(db);
    // The cooling controller becomes a LoRaWAN device behind the company's TTS application.
    await db.query('UPDATE devices SET dev_eui = $2 WHERE id = $1', [demo.cooling.id, DEV_EUI]);
    const integrationToken = randomBytes(16).toString('hex');
    await db.query(
      `INSERT INTO integration_tokens (company_id, kind, name, token_hash) VALUES ($1, 'tts', 'Demo TTS', $2)`,
      [demo.cooling.company_id, createHash('sha256').update(integrationToken).digest('hex')],
    );

    // Its webhook uplink, as TTS sends it when the webhook has a downlink API key.
    const webhook = await fetch(`${platform.ingestUrl}/ttn`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${integrationToken}`,
        'x-downlink-push': `${tts.base}${PUSH_PATH}`,
        'x-downlink-apikey': 'NNSXS.DEMO-DOWNLINK-KEY',
      },
      body: JSON.stringify({
        end_device_ids: { device_id: 'cooling-1', dev_eui: DEV_EUI.toUpperCase() },
        correlation_ids: [`as:up:${randomUUID()}`],
        received_at: new Date().toISOString(),
        uplink_message: {
          f_port: 1,
          f_cnt: 1,
          decoded_payload: { relay_1: 0 },
          received_at: new Date().toISOString(),
        },
      }),
    });
    expect(webhook.status).toBe(202);
    await waitFor('the downlink route kept', 30_000, async () => {
      const { rows } = await db.query('SELECT 1 FROM tts_downlink_routes WHERE device_id = $1', [
        demo.cooling.id,
      ]);
      return rows[0];
    });

    // The cold room warms up: the demo rule switches relay 1 of the controller on.
    const post = uplinkPoster(
      platform.ingestUrl,
      demo.coldRoom,
      await issueDeviceToken(db, demo.coldRoom.id),
    );
    expect(await post({ temperature: 9, humidity: 80, message_id: 'lorawan-warm-1' })).toBe(202);
    await waitFor('the push at The Things Stack', 30_000, async () =>
      tts.pushed.length > 0 ? true : undefined,
    );
    // srd_gateway: 01 (version) 04 (switch_relay_output) 01 (relay 1) 01 (on), port 10.
    expect(tts.pushed).toEqual([
      {
        path: PUSH_PATH,
        authorization: 'Bearer NNSXS.DEMO-DOWNLINK-KEY',
        body: {
          downlinks: [
            {
              f_port: 10,
              frm_payload: Buffer.from('01040101', 'hex').toString('base64'),
              priority: 'NORMAL',
              confirmed: true,
              correlation_ids: [expect.stringMatching(/^iot:downlink:/)],
            },
          ],
        },
      },
    ]);
    const downlink = await waitFor('the downlink recorded as sent', 30_000, async () => {
      const { rows } = await db.query<{ state: string; rule_id: number; encoded: string }>(
        `SELECT state, rule_id::int AS rule_id, encode(encoded, 'hex') AS encoded FROM downlinks WHERE device_id = $1`,
        [demo.cooling.id],
      );
      return rows[0]?.state === 'sent' ? rows : undefined;
    });
    expect(downlink).toEqual([{ state: 'sent', rule_id: demo.ruleId, encoded: '01040101' }]);
    await waitFor('every action logged', 30_000, async () => {
      const statuses = await notificationStatuses(db, demo.ruleId);
      return Object.values(statuses).flat().length >= 4 ? statuses : undefined;
    });
    expect((await notificationStatuses(db, demo.ruleId)).remote_control).toEqual(['sent']);
    expect(tts.pushed).toHaveLength(1);

    // The controller acknowledges the confirmed downlink with its next uplink; TTS's webhook reports it
    // with the downlink's correlation ids, ours among TTS's own.
    const pushed = tts.pushed[0]!.body.downlinks[0]!;
    const ack = await fetch(`${platform.ingestUrl}/ttn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${integrationToken}` },
      body: JSON.stringify({
        end_device_ids: { device_id: 'cooling-1', dev_eui: DEV_EUI.toUpperCase() },
        correlation_ids: [`as:downlink:${randomUUID()}`, ...(pushed.correlation_ids ?? [])],
        received_at: new Date().toISOString(),
        downlink_ack: {
          ...pushed,
          f_cnt: 1,
          correlation_ids: [...(pushed.correlation_ids ?? []), `as:downlink:${randomUUID()}`],
        },
      }),
    });
    expect(ack.status).toBe(200);
    const settled = await waitFor('the downlink acknowledged', 30_000, async () => {
      const { rows } = await db.query<{ state: string; acknowledged_at: Date | null }>(
        'SELECT state, acknowledged_at FROM downlinks WHERE device_id = $1',
        [demo.cooling.id],
      );
      return rows[0]?.state === 'acknowledged' ? rows : undefined;
    });
    expect(settled).toEqual([{ state: 'acknowledged', acknowledged_at: expect.any(Date) }]);
    const { rows: logs } = await db.query<{ message: string }>(
      'SELECT message FROM device_logs WHERE device_id = $1 AND message LIKE $2',
      [demo.cooling.id, 'downlink%'],
    );
    expect(logs).toEqual([{ message: 'downlink on port 10 acknowledged by the device' }]);
  }, 120_000);
});
