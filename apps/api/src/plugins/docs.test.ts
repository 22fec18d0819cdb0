import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app';
import { openTestDb, type TestDb } from '../test/databases';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../../..');
const REDOCLY = join(ROOT, 'node_modules/.bin/redocly');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

/** Lints the document with redocly's recommended rules; answers the errors (warnings pass). */
async function lintErrors(document: unknown): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'iot-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    // redocly exits 1 when it finds errors; the JSON report on stdout says which.
    const { stdout } = await run(REDOCLY, ['lint', file, '--format=json'], { cwd: ROOT }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
    );
    const report = JSON.parse(stdout) as { problems: LintProblem[] };
    return report.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// The document does not depend on the database kind: PGlite only.
describe('OpenAPI document', () => {
  let testDb: TestDb;
  let app: FastifyInstance;
  let spec: {
    paths: Record<
      string,
      Record<string, { operationId?: string; security?: unknown[]; responses: Record<string, unknown> }>
    >;
  };
  const operations = () => Object.values(spec.paths).flatMap((path) => Object.values(path));

  beforeAll(async () => {
    testDb = await openTestDb('pglite');
    app = buildTestApp(testDb.db);
    const response = await app.inject({ method: 'GET', url: '/api/v1/docs/json' });
    spec = response.json();
  }, 300_000);
  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  it('passes redocly lint with no errors', { timeout: 120_000 }, async () => {
    expect(await lintErrors(spec)).toEqual([]);
  });

  it('names every operation once', () => {
    const ids = operations().map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('marks the public routes as needing no session and documents the guard on the others', () => {
    const post = (path: string) => spec.paths[path]?.post;
    for (const operation of [
      post('/api/v1/auth/login'),
      post('/api/v1/auth/forgot-password'),
      post('/api/v1/auth/reset-password'),
      spec.paths['/api/v1/sanctum/csrf-cookie']?.get,
      spec.paths['/api/v1/core/version']?.get,
    ])
      expect(operation?.security).toEqual([]);
    const device = spec.paths['/api/v1/core/devices/{id}']?.get;
    // The session, or an external API key with the scope the route names (issue #27).
    expect(device?.security).toEqual([{ session: [], csrf: [] }, { apiKeyBearer: [] }, { apiKeyHeader: [] }]);
    expect((device as Record<string, unknown> | undefined)?.['x-api-key-scopes']).toEqual(['devices:read']);
    expect(Object.keys(device?.responses ?? {})).toEqual(expect.arrayContaining(['200', '401', '404']));
  });
});
