import { forEachDb } from '@iot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice, createIntegrationToken, randomDevEui } from '../test-support/seed.js';
import { drained, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

const chirpstackUp = (devEui: string, extra: Record<string, unknown> = {}) => ({
  deduplicationId: crypto.randomUUID(),
  time: '2026-02-01T10:00:00.000Z',
  deviceInfo: { devEui: devEui.toUpperCase() },
  fCnt: 3,
  fPort: 1,
  data: 'AQ==',
  object: { temperature: 20.5 },
  rxInfo: [
    { gatewayId: 'a', rssi: -110, snr: -3 },
    { gatewayId: 'b', rssi: -72, snr: 8.5 },
  ],
  ...extra,
});

const ttsUp = (devEui: string) => ({
  end_device_ids: { device_id: 'd', dev_eui: devEui.toUpperCase() },
  correlation_ids: [`as:up:${crypto.randomUUID()}`],
  received_at: '2026-02-01T10:00:01.000Z',
  uplink_message: {
    f_port: 1,
    f_cnt: 9,
    frm_payload: 'AQ==',
    decoded_payload: { humidity: 40 },
    received_at: '2026-02-01T10:00:00.500Z',
  },
});

forEachDb((suite) => {
  describe('ChirpStack and TTS integrations', () => {
    let ingest: TestIngest;
    beforeAll(async () => {
      ingest = await startTestIngest(suite.db);
    });
    afterAll(async () => ingest.stop());

    const post = (path: string, headers: Record<string, string>, body: string) =>
      fetch(`${ingest.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const count = async (deviceId: number) =>
      (
        await suite.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM device_data WHERE device_id = $1',
          [deviceId],
        )
      ).rows[0]!.n;

    it('uses the strongest gateway for RSSI/SNR and the delivered uplink is stored once on a retry', async () => {
      const company = await createCompany(suite.db);
      const token = await createIntegrationToken(suite.db, company, 'chirpstack');
      const device = await createDevice(suite.db, company, { devEui: randomDevEui() });
      const body = JSON.stringify(chirpstackUp(device.devEui!));
      for (let i = 0; i < 2; i++)
        expect((await post('/chirpstack?event=up', { authorization: `Bearer ${token}` }, body)).status).toBe(
          202,
        );
      await drained(ingest.service);
      expect(await count(device.id)).toBe(1);
      const status = await suite.db.query('SELECT rssi, snr, signal_strength FROM devices WHERE id = $1', [
        device.id,
      ]);
      expect(status.rows[0]).toEqual({ rssi: -72, snr: 8.5, signal_strength: 4 });
    });

    it('takes the battery from a ChirpStack status event and only logs join events', async () => {
      const company = await createCompany(suite.db);
      const token = await createIntegrationToken(suite.db, company, 'chirpstack');
      const device = await createDevice(suite.db, company, { devEui: randomDevEui() });
      const auth = { authorization: `Bearer ${token}` };
      const status = {
        deduplicationId: crypto.randomUUID(),
        time: '2026-02-01T11:00:00Z',
        deviceInfo: { devEui: device.devEui },
        margin: 7,
        batteryLevel: 64.5,
      };
      expect((await post('/chirpstack?event=status', auth, JSON.stringify(status))).status).toBe(202);
      const join = {
        deduplicationId: crypto.randomUUID(),
        time: '2026-02-01T11:00:00Z',
        deviceInfo: { devEui: device.devEui },
        devAddr: '01020304',
      };
      expect((await post('/chirpstack?event=join', auth, JSON.stringify(join))).status).toBe(200);
      await drained(ingest.service);
      const row = await suite.db.query('SELECT battery_level FROM devices WHERE id = $1', [device.id]);
      expect(row.rows[0]).toEqual({ battery_level: 64.5 });
      expect(await count(device.id)).toBe(0);
      expect(ingest.lines.some((l) => l.msg === 'chirpstack event received' && l.event === 'join')).toBe(
        true,
      );
    });

    it('accepts the TTS token as X-Integration-Token too', async () => {
      const company = await createCompany(suite.db);
      const token = await createIntegrationToken(suite.db, company, 'tts');
      const device = await createDevice(suite.db, company, { devEui: randomDevEui() });
      const res = await post('/ttn', { 'x-integration-token': token }, JSON.stringify(ttsUp(device.devEui!)));
      expect(res.status).toBe(202);
      await drained(ingest.service);
      expect(await count(device.id)).toBe(1);
    });

    it.each([
      ['ChirpStack: malformed JSON', 'chirpstack', 'own', '{"deviceInfo":', 400, 400],
      ['ChirpStack: wrong token', 'chirpstack', 'wrong', 'up', 401, 401],
      ['ChirpStack: a TTS token', 'chirpstack', 'tts-token', 'up', 401, 401],
      ['ChirpStack: unknown DevEUI', 'chirpstack', 'own', 'unknown', 404, 10],
      ['ChirpStack: the DevEUI of another company', 'chirpstack', 'own', 'other-company', 404, 10],
      ['ChirpStack: no DevEUI', 'chirpstack', 'own', 'no-eui', 422, 422],
      ['ChirpStack: oversized body', 'chirpstack', 'own', 'oversized', 413, 400],
      ['TTS: malformed JSON', 'tts', 'own', '{"uplink_message":', 400, 400],
      ['TTS: wrong token', 'tts', 'wrong', 'up', 401, 401],
      ['TTS: unknown DevEUI', 'tts', 'own', 'unknown', 404, 10],
      ['TTS: the DevEUI of another company', 'tts', 'own', 'other-company', 404, 10],
      ['TTS: oversized body', 'tts', 'own', 'oversized', 413, 400],
    ])('refuses %s, stores nothing and logs it', async (_name, lns, auth, variant, status, code) => {
      const companyA = await createCompany(suite.db);
      const companyB = await createCompany(suite.db);
      const tokenA = await createIntegrationToken(suite.db, companyA, lns as 'chirpstack' | 'tts');
      const otherKind = await createIntegrationToken(
        suite.db,
        companyA,
        lns === 'chirpstack' ? 'tts' : 'chirpstack',
      );
      const deviceA = await createDevice(suite.db, companyA, { devEui: randomDevEui() });
      const deviceB = await createDevice(suite.db, companyB, { devEui: randomDevEui() });
      const eui =
        variant === 'other-company'
          ? deviceB.devEui!
          : variant === 'unknown'
            ? randomDevEui()
            : deviceA.devEui!;
      const make = lns === 'chirpstack' ? chirpstackUp : ttsUp;
      let body = JSON.stringify(make(eui));
      if (variant.startsWith('{')) body = variant;
      if (variant === 'no-eui') body = JSON.stringify({ ...chirpstackUp(eui), deviceInfo: {} });
      if (variant === 'oversized') body = JSON.stringify({ ...make(eui), padding: 'x'.repeat(70_000) });
      const token = auth === 'wrong' ? 'nope' : auth === 'tts-token' ? otherKind : tokenA;
      const before = ingest.lines.length;
      const res = await post(
        lns === 'chirpstack' ? '/chirpstack?event=up' : '/ttn',
        { authorization: `Bearer ${token}` },
        body,
      );
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ code, message: expect.any(String) });
      await drained(ingest.service);
      expect(await count(deviceA.id)).toBe(0);
      expect(await count(deviceB.id)).toBe(0);
      expect(ingest.lines.slice(before).find((l) => l.msg === 'uplink refused')).toMatchObject({
        status,
        code,
      });
    });
  });
});
