/**
 * `npm start` end to end: the built platform migrates PGlite under DATA_DIR, seeds the demo data once,
 * serves the API, prints the URL and the demo logins, and keeps its data across a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api-session.js';
import { runPlatform } from '../support/run-platform.js';

const dataDir = mkdtempSync(join(tmpdir(), 'iot-platform-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the one-command platform (embedded profile)', () => {
  it('starts, serves the API with demo logins, and keeps its data across a restart', async () => {
    const first = await runPlatform({ DATA_DIR: dataDir });
    try {
      expect(first.output()).toContain('embedded profile, pglite');
      for (const email of ['admin@demo.test', 'main@demo.test', 'user@demo.test', 'main@other.test']) {
        expect(first.output()).toContain(email);
      }

      const version = await fetch(`${first.url}/api/v1/core/version`);
      expect(version.status).toBe(200);
      const body = (await version.json()) as { payload: { version: string } };
      expect(body.payload.version.length).toBeGreaterThan(0);

      const session = new ApiSession(first.url);
      const login = await session.login('main@demo.test', 'DemoPass#2026');
      expect(login.status).toBe(200);
      const renamed = await session.call('PUT', '/api/v1/core/company/', { name: 'Demo Agrar (renamed)' });
      expect(renamed.status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const second = await runPlatform({ DATA_DIR: dataDir });
    try {
      const session = new ApiSession(second.url);
      expect((await session.login('main@demo.test', 'DemoPass#2026')).status).toBe(200);
      const user = await session.call<{ company: { name: string } }>('GET', '/api/v1/core/user');
      expect(user.body.payload?.company.name).toBe('Demo Agrar (renamed)');
      // The demo data is written once: still exactly one super admin login after the restart.
      const clients = new ApiSession(second.url);
      await clients.login('admin@demo.test', 'DemoPass#2026');
      const list = await clients.call<Array<{ name: string }>>('GET', '/api/v1/admin/clients');
      const names = (list.body.payload ?? []).map((c) => c.name);
      expect(names.filter((n) => n === 'Other Company AG')).toHaveLength(1);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 240_000);
});
