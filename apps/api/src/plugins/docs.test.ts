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

/** Lints the document with redocly's recommended rules (redocly.yaml at the root): errors only. */
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
    paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
  };

  beforeAll(async () => {
    testDb = await openTestDb('pglite');
    app = buildTestApp(testDb.db);
    const response = await app.inject({ method: 'GET', url: '/api/v1/docs/json' });
    spec = response.json();
  });
  afterAll(async () => {
    await app?.close();
    await testDb?.drop();
  });

  it('passes redocly lint with no errors', { timeout: 60_000 }, async () => {
    expect(await lintErrors(spec)).toEqual([]);
  });
});
