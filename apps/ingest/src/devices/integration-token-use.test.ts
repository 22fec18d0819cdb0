/**
 * integration_tokens.last_used_at through the real front doors: set when a token authenticates a
 * ChirpStack event, a TTS webhook or an `http` uplink, written at most once per interval per token, and
 * not at all for a refused request.
 */
import { forEachDb } from '@iot/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createDevice, createIntegrationToken, randomDevEui } from '../test-support/seed.js';
import { startTestIngest, type TestIngest } from '../test-support/test-ingest.js';
import { DeviceDirectory, sha256Hex } from './device-directory.js';

forEachDb((suite) => {
  describe('integration token use', () => {
    let ingest: TestIngest;
    beforeAll(async () => {
      ingest = await startTestIngest(suite.db);
    });
    afterAll(async () => ingest.stop());

    const lastUsed = async (token: string) =>
      (
        await suite.db.query<{ last_used_at: Date | null }>(
          'SELECT last_used_at FROM integration_tokens WHERE token_hash = $1',
          [sha256Hex(token)],
        )
      ).rows[0]!.last_used_at;
    const post = (path: string, token: string, body: unknown) =>
      fetch(`${ingest.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }).then(async (response) => {
        await response.body?.cancel();
        return response.status;
      });

    it('is recorded when a token authenticates at each front door, not when it is refused', async () => {
      const company = await createCompany(suite.db);
      const device = await createDevice(suite.db, company, { devEui: randomDevEui() });
      const chirpstack = await createIntegrationToken(suite.db, company, 'chirpstack');
      const tts = await createIntegrationToken(suite.db, company, 'tts');
      const http = await createIntegrationToken(suite.db, company, 'http');
      // The wrong kind of token for the door: refused, not a use.
      expect(await post('/ttn', chirpstack, {})).toBe(401);
      expect(await lastUsed(chirpstack)).toBeNull();

      expect(
        await post('/chirpstack?event=up', chirpstack, {
          deduplicationId: crypto.randomUUID(),
          deviceInfo: { devEui: device.devEui },
          fPort: 1,
          object: { temperature: 20.5 },
        }),
      ).toBe(202);
      expect(
        await post('/ttn', tts, {
          end_device_ids: { device_id: 'd', dev_eui: device.devEui },
          uplink_message: { f_port: 1, decoded_payload: { humidity: 40 } },
        }),
      ).toBe(202);
      expect(await post(`/uplinks/${device.uuid}`, http, { temperature: 21 })).toBe(202);
      for (const token of [chirpstack, tts, http]) {
        await expect.poll(() => lastUsed(token)).not.toBeNull();
        expect(Math.abs(Date.now() - (await lastUsed(token))!.getTime())).toBeLessThan(60_000);
      }
    });

    it('writes at most once per interval per token, not once per uplink', async () => {
      const company = await createCompany(suite.db);
      const token = await createIntegrationToken(suite.db, company, 'chirpstack');
      let now = 1_000_000;
      const directory = new DeviceDirectory(suite.db, { now: () => now });
      const found = (await directory.integrationToken(token))!;
      await directory.integrationTokenUsed(found);
      const first = await lastUsed(token);
      expect(first).not.toBeNull();
      // Pretend the write was long ago: within the interval this process still does not write again.
      const longAgo = new Date('2026-01-01T00:00:00Z');
      await suite.db.query('UPDATE integration_tokens SET last_used_at = $2 WHERE token_hash = $1', [
        sha256Hex(token),
        longAgo,
      ]);
      for (let i = 0; i < 100; i += 1) await directory.integrationTokenUsed(found);
      now += 59_000;
      await directory.integrationTokenUsed(found);
      expect(await lastUsed(token)).toEqual(longAgo);
      // After the interval it writes again.
      now += 2_000;
      await directory.integrationTokenUsed(found);
      expect((await lastUsed(token))!.getTime()).toBeGreaterThan(longAgo.getTime());
      // Another process that wrote a moment ago makes the database skip this one's write.
      const other = new DeviceDirectory(suite.db);
      const justNow = (await lastUsed(token))!;
      await other.integrationTokenUsed(found);
      expect(await lastUsed(token)).toEqual(justNow);
    });
  });
});
