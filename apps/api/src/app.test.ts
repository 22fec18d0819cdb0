import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@iot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './test/app';
import { TestClient } from './test/client';
import { openTestDb, type TestDb } from './test/databases';
import { createTeam, PASSWORD } from './test/fixtures';

// Plumbing that does not depend on the database kind runs on PGlite only.
describe('app plumbing', () => {
  let testDb: TestDb;
  let db: Db;
  let consoleDir: string;

  beforeAll(async () => {
    testDb = await openTestDb('pglite');
    db = testDb.db;
    consoleDir = await mkdtemp(join(tmpdir(), 'iot-console-'));
    await writeFile(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    await writeFile(join(consoleDir, 'app.js'), 'console.log(1)');
  });

  afterAll(async () => {
    await testDb?.drop();
    await rm(consoleDir, { recursive: true, force: true });
  });

  it('serves OpenAPI with the routes of this issue and swagger-ui', async () => {
    const app = buildTestApp(db);
    try {
      const client = new TestClient(app);
      const spec = await client.get('/api/v1/docs/json');
      expect(spec.status).toBe(200);
      const paths = Object.keys(spec.body.paths);
      for (const path of [
        '/api/v1/auth/login',
        '/api/v1/core/user',
        '/api/v1/core/users/{id}',
        '/api/v1/core/countries/{id}/states',
        '/api/v1/admin/clients/{id}/impersonate',
      ]) {
        expect(paths).toContain(path);
      }
      const ui = await client.get('/api/v1/docs/');
      expect(ui.status).toBe(200);
      expect(String(ui.headers['content-type'])).toContain('text/html');
    } finally {
      await app.close();
    }
  });

  it('maps failures to { code, message }: 422 for schema errors, 404 for unknown routes, 5xx without detail', async () => {
    const app = buildTestApp(db);
    app.get('/api/v1/test/boom', async () => {
      throw new Error('connection string postgres://secret@db');
    });
    try {
      const { main } = await createTeam(db);
      const client = new TestClient(app);
      await client.login(main.email, PASSWORD);
      const invalid = await client.get('/api/v1/core/users/not-a-number');
      expect([invalid.status, invalid.body.code]).toEqual([422, 422]);
      const missing = await client.get('/api/v1/core/nothing');
      expect([missing.status, missing.body.code]).toEqual([404, 404]);
      const boom = await client.get('/api/v1/test/boom');
      expect(boom.status).toBe(500);
      expect(boom.body).toEqual({ code: 500, message: 'Internal error. Please contact support.' });
      const badJson = await client.request('POST', '/api/v1/core/support', '{not json', {
        headers: { 'content-type': 'application/json' },
      });
      expect([badJson.status, badJson.body.code]).toEqual([400, 400]);
    } finally {
      await app.close();
    }
  });

  it('serves the console from CONSOLE_DIR with index.html for client-side routes, never for the API', async () => {
    const app = buildTestApp(db);
    const withConsole = buildTestApp(db, {
      config: { ...app.deps.config, CONSOLE_DIR: consoleDir },
    });
    await app.close();
    try {
      const client = new TestClient(withConsole);
      const file = await client.get('/app.js');
      expect([file.status, file.body]).toEqual([200, 'console.log(1)']);
      for (const path of ['/', '/dashboard', '/login/reset-password/abc']) {
        const page = await client.get(path);
        expect([path, page.status, String(page.body).includes('<title>console</title>')]).toEqual([
          path,
          200,
          true,
        ]);
      }
      const api = await client.get('/api/v1/core/nothing');
      expect([api.status, api.body.code]).toEqual([404, 404]);
      const version = await client.get('/api/v1/core/version');
      expect(version.status).toBe(200);
    } finally {
      await withConsole.close();
    }
  });

  it('marks every cookie Secure when COOKIE_SECURE is set', async () => {
    const plain = buildTestApp(db);
    const secure = buildTestApp(db, { config: { ...plain.deps.config, COOKIE_SECURE: true } });
    await plain.close();
    try {
      const { main } = await createTeam(db);
      const client = new TestClient(secure);
      const csrf = await client.get('/sanctum/csrf-cookie');
      expect(csrf.cookies.map((c) => [c.name, c.secure])).toEqual([
        ['iot_presession', true],
        ['XSRF-TOKEN', true],
      ]);
      const login = await client.post('/api/v1/auth/login', { email: main.email, password: PASSWORD });
      const session = login.cookies.find((c) => c.name === 'iot_session');
      expect([session?.secure, session?.httpOnly, session?.sameSite]).toEqual([true, true, 'Lax']);
    } finally {
      await secure.close();
    }
  });

  it('writes mail to the outbox without SMTP', async () => {
    const app = buildTestApp(db);
    try {
      await app.ready();
      await app.deps.mailer.send({
        to: ['a@example.test'],
        cc: ['b@example.test'],
        subject: 'Hi',
        text: 'Body',
      });
      const { rows } = await db.query<{ recipients: string[]; cc: string[]; sent_at: Date | null }>(
        `SELECT recipients, cc, sent_at FROM outbox_emails WHERE subject = 'Hi'`,
      );
      expect(rows).toEqual([{ recipients: ['a@example.test'], cc: ['b@example.test'], sent_at: null }]);
    } finally {
      await app.close();
    }
  });
});
