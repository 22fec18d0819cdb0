import { saveNetworkServer, saveTtsDownlinkRoute } from '@iot/db';
import { createTestDb, type TestDb } from '@iot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChirpstackStandIn } from '../testing/chirpstack';
import { startTtsStandIn } from '../testing/tts';
import { downlinkHelpers, randomDevEui } from './downlink-test-support';
import type { DownlinkPublish } from './downlink-transport';
import { sendDownlink } from './send-downlink';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb('pglite');
});
afterAll(async () => {
  await db?.drop();
});

const { device, rebootFailure, rowsOf, referenceOf } = downlinkHelpers(() => db);

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
