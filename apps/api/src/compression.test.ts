/**
 * Response compression (issue #30, @fastify/compress): JSON above 1 kB goes out as brotli or gzip, whichever
 * the client accepts, and decodes to the same answer; small answers and clients without Accept-Encoding get
 * the plain body.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { forEachDb } from '@iot/db/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './test/app';
import { TestClient } from './test/client';
import { createDevice } from './test/device-fixtures';
import { createTeam, PASSWORD } from './test/fixtures';

const DEVICES = 60;

forEachDb((suite) => {
  let app: FastifyInstance;
  let client: TestClient;

  beforeAll(async () => {
    app = buildTestApp(suite.db);
    await app.ready();
    const team = await createTeam(suite.db);
    // A device list of some 20 kB, like a company's first page of devices.
    for (let i = 0; i < DEVICES; i++) {
      await createDevice(suite.db, team.company.id, { name: `Compressed device ${i}` });
    }
    client = new TestClient(app);
    await client.login(team.main.email, PASSWORD);
  });
  afterAll(async () => {
    await app?.close();
  });

  function get(url: string, acceptEncoding?: string): Promise<LightMyRequestResponse> {
    return app.inject({
      url,
      headers: {
        cookie: client.cookieHeader(),
        ...(acceptEncoding && { 'accept-encoding': acceptEncoding }),
      },
    });
  }

  describe('response compression', () => {
    it('sends a large JSON answer as brotli or gzip, decoding to the plain answer', async () => {
      const plain = await get('/api/v1/core/devices');
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(5_000);
      expect(JSON.parse(plain.body).payload).toHaveLength(DEVICES);

      const br = await get('/api/v1/core/devices', 'gzip, deflate, br');
      expect([br.statusCode, br.headers['content-encoding']]).toEqual([200, 'br']);
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

      const gzip = await get('/api/v1/core/devices', 'gzip');
      expect([gzip.statusCode, gzip.headers['content-encoding']]).toEqual([200, 'gzip']);
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    });

    it('leaves answers under 1 kB and clients without Accept-Encoding uncompressed', async () => {
      const small = await get('/api/v1/core/version', 'gzip, br');
      expect(small.statusCode).toBe(200);
      expect(small.rawPayload.length).toBeLessThan(1024);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(small.body)).toMatchObject({ payload: { api: 'v1' } });

      const identity = await get('/api/v1/core/devices', 'identity');
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(identity.body).payload).toHaveLength(DEVICES);
    });
  });
});
