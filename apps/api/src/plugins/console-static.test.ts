import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { Db } from '@iot/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app';
import { openTestDb, type TestDb } from '../test/databases';

const INDEX = '<!doctype html><title>console</title>';
const CHUNK = `export const x = "${'chunk '.repeat(200)}";`;

describe('console serving', () => {
  let testDb: TestDb;
  let db: Db;
  let consoleDir: string;
  let app: FastifyInstance;
  const logged: { level: number; msg: string }[] = [];

  beforeAll(async () => {
    testDb = await openTestDb('pglite');
    db = testDb.db;
    consoleDir = await mkdtemp(join(tmpdir(), 'iot-console-'));
    await mkdir(join(consoleDir, 'assets'));
    await writeFile(join(consoleDir, 'index.html'), INDEX);
    // As the build writes them: the file and its brotli and gzip copies.
    await writeFile(join(consoleDir, 'assets', 'chunk-abc123.js'), CHUNK);
    await writeFile(join(consoleDir, 'assets', 'chunk-abc123.js.br'), brotliCompressSync(CHUNK));
    await writeFile(join(consoleDir, 'assets', 'chunk-abc123.js.gz'), gzipSync(CHUNK));
    const plain = buildTestApp(db);
    const config = { ...plain.deps.config, CONSOLE_DIR: consoleDir };
    await plain.close();
    app = buildTestApp(db, {
      config,
      logger: {
        level: 'warn',
        stream: { write: (line: string) => logged.push(JSON.parse(line)) },
      },
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
    await rm(consoleDir, { recursive: true, force: true });
  });

  it('sends the precompressed copy the browser accepts, cached for a year as immutable', async () => {
    const br = await app.inject({
      url: '/assets/chunk-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect([br.statusCode, br.headers['content-encoding'], br.headers['cache-control']]).toEqual([
      200,
      'br',
      'public, max-age=31536000, immutable',
    ]);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(CHUNK);

    const gz = await app.inject({ url: '/assets/chunk-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(CHUNK);

    const identity = await app.inject({ url: '/assets/chunk-abc123.js', headers: { 'accept-encoding': '' } });
    expect([identity.headers['content-encoding'], identity.body]).toEqual([undefined, CHUNK]);
  });

  it('revalidates index.html on every load, for / and for client-side routes', async () => {
    for (const url of ['/', '/dashboard', '/devices/ok?sort=name']) {
      const page = await app.inject({ url });
      expect([url, page.statusCode, page.headers['cache-control'], page.body]).toEqual([
        url,
        200,
        'no-cache',
        INDEX,
      ]);
    }
  });

  it('compresses index.html per request for a browser that accepts it (it has no copies of its own)', async () => {
    const page = await app.inject({ url: '/dashboard', headers: { 'accept-encoding': 'br, gzip' } });
    expect([page.statusCode, page.headers['content-encoding'], page.headers['cache-control']]).toEqual([
      200,
      'br',
      'no-cache',
    ]);
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(INDEX);
  });

  it('answers a missing build file and an unknown API path with the JSON 404, never index.html', async () => {
    for (const url of ['/assets/chunk-old999.js', '/api/v1/core/nothing', '/sanctum/nothing']) {
      const answer = await app.inject({ url });
      expect([url, answer.statusCode, answer.json().code]).toEqual([url, 404, 404]);
    }
  });

  it('answers the JSON 404 without a logged NotFound while a build has removed index.html', async () => {
    await rm(join(consoleDir, 'index.html'));
    try {
      const before = logged.length;
      const page = await app.inject({ url: '/dashboard' });
      expect([page.statusCode, page.json().code]).toEqual([404, 404]);
      expect(logged.slice(before).map((l) => l.msg)).toEqual([]);
    } finally {
      await writeFile(join(consoleDir, 'index.html'), INDEX);
    }
    const back = await app.inject({ url: '/dashboard' });
    expect([back.statusCode, back.body]).toEqual([200, INDEX]);
  });
});
