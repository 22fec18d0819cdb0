import { messageHash } from '@iot/db';
import { forEachDb } from '@iot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompany,
  createDevice,
  createIntegrationToken,
  type SeededDevice,
} from '../test-support/seed.js';
import { drained, startTestIngest, type TestIngest } from '../test-support/test-ingest.js';

forEachDb((suite) => {
  describe('HTTP device uplinks', () => {
    let ingest: TestIngest;
    let company: number;
    beforeAll(async () => {
      ingest = await startTestIngest(suite.db);
      company = await createCompany(suite.db);
    });
    afterAll(async () => ingest.stop());

    const post = (
      device: { uuid: string },
      token: string | null,
      body: string | Uint8Array,
      type = 'application/json',
    ) =>
      fetch(`${ingest.url}/uplinks/${device.uuid}`, {
        method: 'POST',
        headers: { 'content-type': type, ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
        body,
      });

    const storedRows = async (device: SeededDevice) =>
      (
        await suite.db.query<{ data: unknown; message_hash: number | null }>(
          'SELECT data, message_hash FROM device_data WHERE device_id = $1',
          [device.id],
        )
      ).rows.map(({ data, message_hash }) => ({
        data,
        // Migration 0043 keeps a hash of the message id.
        message_id: message_hash === null ? null : `#${message_hash}`,
      }));
    const stored = (id: string) => `#${messageHash(id)}`;

    it('accepts a JSON object of data fields and stores it with the device status', async () => {
      const device = await createDevice(suite.db, company);
      const res = await post(
        device,
        device.token,
        JSON.stringify({ temperature: 21.5, battery: 77, latitude: 48.04, longitude: 7.57 }),
      );
      expect(res.status).toBe(202);
      const body = (await res.json()) as { payload: { kind: string; messageId: string } };
      expect(body.payload.kind).toBe('uplink');
      await drained(ingest.service);
      expect(await storedRows(device)).toEqual([
        {
          data: { temperature: 21.5, battery: 77, latitude: 48.04, longitude: 7.57 },
          message_id: stored(body.payload.messageId),
        },
      ]);
      const status = await suite.db.query(
        'SELECT c.battery_level, c.is_active, d.latitude FROM devices d JOIN device_current c ON c.device_id = d.id WHERE d.id = $1',
        [device.id],
      );
      expect(status.rows[0]).toEqual({ battery_level: 77, is_active: true, latitude: 48.04 });
    });

    it("accepts the company's http integration token (NB-IoT backends) as X-Integration-Token", async () => {
      const device = await createDevice(suite.db, company);
      const token = await createIntegrationToken(suite.db, company, 'http');
      const res = await fetch(`${ingest.url}/uplinks/${device.uuid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-integration-token': token },
        body: JSON.stringify({ temperature: 8 }),
      });
      expect(res.status).toBe(202);
      await drained(ingest.service);
      expect((await storedRows(device)).map((r) => r.data)).toEqual([{ temperature: 8 }]);
    });

    it('decodes bytes with the device driver (nbiot_button frame 01 02 00 2A 57)', async () => {
      const device = await createDevice(suite.db, company, { driverId: 'nbiot_button' });
      const res = await post(
        device,
        device.token,
        new Uint8Array([0x01, 0x02, 0x00, 0x2a, 0x57]),
        'application/octet-stream',
      );
      expect(res.status).toBe(202);
      await drained(ingest.service);
      expect((await storedRows(device)).map((r) => r.data)).toEqual([
        { click_type: 2, click_count: 42, battery_level: 87 },
      ]);
    });

    it('keeps an undecodable frame in device_logs with its raw bytes and stores no data point', async () => {
      const device = await createDevice(suite.db, company, { driverId: 'nbiot_button' });
      const raw = new Uint8Array([0x01, 0x02, 0x03]);
      const res = await post(device, device.token, raw, 'application/octet-stream');
      expect(res.status).toBe(202);
      expect(((await res.json()) as { payload: { kind: string } }).payload.kind).toBe('decode_failed');
      await drained(ingest.service);
      const logs = await suite.db.query<{ level: number; raw: Uint8Array; message: string }>(
        'SELECT level, raw, message FROM device_logs WHERE device_id = $1',
        [device.id],
      );
      expect(logs.rows).toHaveLength(1);
      expect(logs.rows[0]!.level).toBe(3);
      expect([...logs.rows[0]!.raw]).toEqual([...raw]);
      expect(await storedRows(device)).toEqual([]);
      expect(ingest.lines.some((l) => l.msg === 'uplink not decoded, kept in the device log')).toBe(true);
    });

    it('does not believe a time the database cannot hold: stored at the receive time', async () => {
      for (const time of ['-004800-01-01T00:00:00Z', -1e14, '1969-12-31T23:59:59Z']) {
        const device = await createDevice(suite.db, company);
        const res = await post(device, device.token, JSON.stringify({ temperature: 3, time }));
        expect(res.status).toBe(202);
        await drained(ingest.service);
        const { rows } = await suite.db.query<{ age: number }>(
          `SELECT extract(epoch FROM now() - created_at)::float8 AS age FROM device_data WHERE device_id = $1`,
          [device.id],
        );
        expect(rows).toHaveLength(1);
        expect(Math.abs(rows[0]!.age)).toBeLessThan(60);
      }
    });

    it('stores a repeated uplink (same message id) once', async () => {
      const device = await createDevice(suite.db, company);
      const body = JSON.stringify({ id: 'msg-1', time: '2026-01-01T00:00:00Z', temperature: 3 });
      expect((await post(device, device.token, body)).status).toBe(202);
      expect((await post(device, device.token, body)).status).toBe(202);
      await drained(ingest.service);
      expect(await storedRows(device)).toEqual([{ data: { temperature: 3 }, message_id: stored('msg-1') }]);
    });

    it.each([
      ['malformed JSON', 'ok', '{"temperature": ', 'application/json', 400, 400],
      ['a JSON array', 'ok', '[1,2]', 'application/json', 422, 422],
      [
        'an oversized body (65 KiB)',
        'ok',
        JSON.stringify({ note: 'x'.repeat(65 * 1024) }),
        'application/json',
        413,
        400,
      ],
      // Hostile text the storage writer cannot keep: refused before the 202, never dropped after it.
      ['a lone UTF-16 surrogate in a value', 'ok', '{"name": "\\ud800"}', 'application/json', 400, 400],
      ['a lone UTF-16 surrogate in a key', 'ok', '{"\\udc00": 1}', 'application/json', 400, 400],
      ['a NUL character', 'ok', '{"name": "a\\u0000b"}', 'application/json', 400, 400],
      [
        'invalid UTF-8',
        'ok',
        Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        'application/json',
        400,
        400,
      ],
      [
        'JSON nested deeper than 32 levels',
        'ok',
        `{"a":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`,
        'application/json',
        400,
        400,
      ],
      [
        'JSON nested 20,000 levels',
        'ok',
        `{"a":${'['.repeat(20000)}${']'.repeat(20000)}}`,
        'application/json',
        400,
        400,
      ],
      ['an unsupported content type', 'ok', 'temperature=1', 'text/plain', 415, 50109],
      ['a wrong token', 'wrong', '{"temperature": 1}', 'application/json', 401, 401],
      ['no token', 'none', '{"temperature": 1}', 'application/json', 401, 401],
      ['an unknown device', 'unknown', '{"temperature": 1}', 'application/json', 404, 10],
      [
        "another company's http integration token",
        'other-company',
        '{"temperature": 1}',
        'application/json',
        404,
        10,
      ],
      [
        'an integration token of another kind',
        'chirpstack-token',
        '{"temperature": 1}',
        'application/json',
        401,
        401,
      ],
      ['a disposed device', 'disposed', '{"temperature": 1}', 'application/json', 404, 10],
    ])(
      'refuses %s with a clear answer, stores nothing and logs it',
      async (_name, auth, body, type, status, code) => {
        const device = await createDevice(suite.db, company, {
          state: auth === 'disposed' ? 'disposed' : 'ok',
        });
        const target = auth === 'unknown' ? { uuid: '00000000-0000-4000-8000-000000000000' } : device;
        const tokens: Record<string, () => Promise<string | null>> = {
          wrong: async () => 'not-the-token',
          none: async () => null,
          'other-company': async () =>
            createIntegrationToken(suite.db, await createCompany(suite.db), 'http'),
          'chirpstack-token': async () => createIntegrationToken(suite.db, company, 'chirpstack'),
        };
        const token = tokens[auth] ? await tokens[auth]() : device.token;
        const before = ingest.lines.length;
        const res = await post(target, token, body, type);
        expect(res.status).toBe(status);
        const answer = (await res.json()) as { code: number; message: string };
        expect(answer.code).toBe(code);
        expect(answer.message).toEqual(expect.any(String));
        await drained(ingest.service);
        expect(await storedRows(device)).toEqual([]);
        const logged = ingest.lines.slice(before).find((l) => l.msg === 'uplink refused');
        expect(logged).toMatchObject({ status, code });
      },
    );
  });
});
