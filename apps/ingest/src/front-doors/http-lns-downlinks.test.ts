/** ChirpStack and TTS webhooks on downlinks: acks and failures settle sent commands, TTS routes kept. */
import { forEachDb } from '@iot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice, createIntegrationToken, randomDevEui } from '../test-support/seed.js';
import { drained, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

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

    it('settles sent downlinks from ChirpStack ack events and TTS downlink messages, the device’s own only', async () => {
      const company = await createCompany(suite.db);
      const other = await createCompany(suite.db);
      const csToken = await createIntegrationToken(suite.db, company, 'chirpstack');
      const ttsToken = await createIntegrationToken(suite.db, company, 'tts');
      const valve = await createDevice(suite.db, company, { devEui: randomDevEui() });
      const neighbour = await createDevice(suite.db, company, { devEui: randomDevEui() });
      const foreign = await createDevice(suite.db, other, { devEui: randomDevEui() });
      const sent = async (device: { id: number }, companyId: number, reference: string) =>
        (
          await suite.db.query<{ id: number }>(
            `INSERT INTO downlinks (company_id, device_id, command, state, reference, sent_at)
             VALUES ($1, $2, 'switch_valve', 'sent', $3, now()) RETURNING id::int AS id`,
            [companyId, device.id, reference],
          )
        ).rows[0]!.id;
      const suffix = crypto.randomUUID();
      const ids = {
        acked: await sent(valve, company, `q-1-${suffix}`),
        timedOut: await sent(valve, company, `q-2-${suffix}`),
        neighbours: await sent(neighbour, company, `q-3-${suffix}`),
        // Another company's downlink with the same reference: a report of ours must not reach it.
        foreign: await sent(foreign, other, `q-1-${suffix}`),
        ttsAcked: await sent(valve, company, `iot:downlink:a-${suffix}`),
        ttsFailed: await sent(valve, company, `iot:downlink:b-${suffix}`),
        ttsNacked: await sent(valve, company, `iot:downlink:c-${suffix}`),
      };
      const chirpstack = async (event: string, body: Record<string, unknown>) => {
        const res = await post(
          `/chirpstack?event=${event}`,
          { authorization: `Bearer ${csToken}` },
          JSON.stringify({ time: '2026-02-01T12:00:00Z', deviceInfo: { devEui: valve.devEui }, ...body }),
        );
        expect(res.status).toBe(200);
      };
      const tts = async (message: Record<string, unknown>) => {
        const res = await post(
          '/ttn',
          { authorization: `Bearer ${ttsToken}` },
          JSON.stringify({
            end_device_ids: { device_id: 'valve', dev_eui: valve.devEui!.toUpperCase() },
            correlation_ids: [`as:downlink:${crypto.randomUUID()}`],
            received_at: '2026-02-01T12:00:05Z',
            ...message,
          }),
        );
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ payload: { handled: true } });
      };
      const downlink = (reference: string) => ({
        f_port: 10,
        f_cnt: 4,
        frm_payload: 'AQQBAQ==',
        confirmed: true,
        priority: 'NORMAL',
        correlation_ids: [reference, `as:downlink:${crypto.randomUUID()}`],
      });

      await chirpstack('txack', { queueItemId: `q-1-${suffix}`, gatewayId: 'gw-1', fCntDown: 4 });
      await chirpstack('ack', { queueItemId: `q-1-${suffix}`, acknowledged: true, fCntDown: 4 });
      // acknowledged false is protobuf's zero value: ChirpStack leaves it out when the ack timed out.
      await chirpstack('ack', { queueItemId: `q-2-${suffix}`, fCntDown: 5 });
      // The neighbour's queue item named in an event of the valve's: not the valve's downlink.
      await chirpstack('ack', { queueItemId: `q-3-${suffix}`, acknowledged: true });
      await tts({ downlink_ack: downlink(`iot:downlink:a-${suffix}`) });
      await tts({
        downlink_failed: {
          downlink: downlink(`iot:downlink:b-${suffix}`),
          error: {
            namespace: 'pkg/networkserver',
            name: 'application_downlink_too_long',
            message_format: 'application downlink too long',
          },
        },
      });
      await tts({ downlink_nack: downlink(`iot:downlink:c-${suffix}`) });
      await drained(ingest.service);
      // A late ack of the timed-out item (or a redelivered report) does not move a settled downlink.
      await chirpstack('ack', {
        queueItemId: `q-2-${suffix}`,
        acknowledged: true,
        time: '2026-02-01T12:10:00Z',
      });
      await drained(ingest.service);

      const { rows } = await suite.db.query<{
        id: number;
        state: string;
        error: string | null;
        acknowledged_at: Date | null;
      }>(
        'SELECT id::int AS id, state, error, acknowledged_at FROM downlinks WHERE id = ANY($1) ORDER BY id',
        [Object.values(ids)],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(ids.acked)).toEqual({
        id: ids.acked,
        state: 'acknowledged',
        error: null,
        acknowledged_at: new Date('2026-02-01T12:00:00Z'),
      });
      expect(byId.get(ids.timedOut)).toMatchObject({
        state: 'failed',
        error: 'not acknowledged by the device (ChirpStack)',
        acknowledged_at: null,
      });
      expect(byId.get(ids.neighbours)).toMatchObject({ state: 'sent', acknowledged_at: null });
      expect(byId.get(ids.foreign)).toMatchObject({ state: 'sent', acknowledged_at: null });
      expect(byId.get(ids.ttsAcked)).toMatchObject({
        state: 'acknowledged',
        acknowledged_at: new Date('2026-02-01T12:00:05Z'),
      });
      expect(byId.get(ids.ttsFailed)).toMatchObject({
        state: 'failed',
        error: 'The Things Stack: application downlink too long',
      });
      // TTS queues a downlink the device did not acknowledge again: still on its way.
      expect(byId.get(ids.ttsNacked)).toMatchObject({ state: 'sent' });

      const logs = await suite.db.query<{ level: number; message: string }>(
        'SELECT level, message FROM device_logs WHERE device_id = $1 ORDER BY id',
        [valve.id],
      );
      expect(logs.rows).toEqual([
        { level: 6, message: 'downlink sent by gateway gw-1' },
        { level: 5, message: 'downlink acknowledged by the device' },
        { level: 4, message: 'downlink not acknowledged by the device' },
        { level: 5, message: 'downlink acknowledged by the device' },
        { level: 5, message: 'downlink on port 10 acknowledged by the device' },
        { level: 3, message: 'downlink on port 10 failed: application downlink too long' },
        {
          level: 4,
          message: 'downlink on port 10 not acknowledged by the device; The Things Stack queues it again',
        },
        { level: 5, message: 'downlink acknowledged by the device' },
      ]);

      // The two failures reach the company's users as system messages (migration 0023), once each,
      // although the late ack came again; nothing reaches the other company.
      const messages = await suite.db.query<{
        company_id: number;
        level: number;
        kind: string;
        params: unknown;
      }>(
        `SELECT company_id::int AS company_id, level::int AS level, kind, params FROM messages
          WHERE company_id = ANY($1) ORDER BY id`,
        [[company, other]],
      );
      const valveName = (
        await suite.db.query<{ name: string }>('SELECT name FROM devices WHERE id = $1', [valve.id])
      ).rows[0]!.name;
      expect(messages.rows).toEqual([
        {
          company_id: company,
          level: 3,
          kind: 'downlink_failed',
          params: expect.objectContaining({
            downlink_id: ids.timedOut,
            device: valveName,
            command: 'switch_valve',
            error: 'not acknowledged by the device (ChirpStack)',
            by_rule: false,
          }),
        },
        {
          company_id: company,
          level: 3,
          kind: 'downlink_failed',
          params: expect.objectContaining({
            downlink_id: ids.ttsFailed,
            error: 'The Things Stack: application downlink too long',
          }),
        },
      ]);
    });

    it('keeps where a TTS webhook says the device’s downlinks go, rewritten only when it changes', async () => {
      const company = await createCompany(suite.db);
      const token = await createIntegrationToken(suite.db, company, 'tts');
      const device = await createDevice(suite.db, company, { devEui: randomDevEui() });
      const push =
        'https://eu1.cloud.thethings.network/api/v3/as/applications/farm/webhooks/iot/devices/valve-1/down/push';
      const route = async () =>
        (
          await suite.db.query<{ company_id: number; push_url: string; api_key: string; updated_at: Date }>(
            'SELECT company_id::int AS company_id, push_url, api_key, updated_at FROM tts_downlink_routes WHERE device_id = $1',
            [device.id],
          )
        ).rows[0];
      const send = async (headers: Record<string, string>) => {
        const res = await post(
          '/ttn',
          { authorization: `Bearer ${token}`, ...headers },
          JSON.stringify(ttsUp(device.devEui!)),
        );
        expect(res.status).toBe(202);
      };
      // Headers that do not name a TTS downlink queue are ignored: nothing saved.
      await send({ 'x-downlink-push': 'https://attacker.test/collect', 'x-downlink-apikey': 'NNSXS.K1' });
      await send({ 'x-downlink-push': `${push}?debug=1`, 'x-downlink-apikey': 'NNSXS.K1' });
      await send({ 'x-downlink-push': push });
      await drained(ingest.service);
      expect(await route()).toBeUndefined();

      await send({ 'x-downlink-push': push, 'x-downlink-apikey': 'NNSXS.K1' });
      await expect.poll(route).toMatchObject({ company_id: company, push_url: push, api_key: 'NNSXS.K1' });
      const first = (await route())!.updated_at;
      await send({ 'x-downlink-push': push, 'x-downlink-apikey': 'NNSXS.K1' });
      await drained(ingest.service);
      expect((await route())!.updated_at).toEqual(first);
      // A new key (rotated in TTS) replaces the old one.
      await send({ 'x-downlink-push': push, 'x-downlink-apikey': 'NNSXS.K2' });
      await expect.poll(async () => (await route())?.api_key).toBe('NNSXS.K2');
    });
  });
});
