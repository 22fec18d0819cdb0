/**
 * Health, readiness and metrics on the API's port (issue #29): JSON, never the console's HTML; readiness
 * 503 when the database lacks a migration or the process drains; /metrics open to loopback, to others
 * only with METRICS_TOKEN.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@iot/config';
import { forEachDb } from '@iot/db/testing';
import { Health } from '@iot/runtime';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from './test/app';

const TOKEN = 'metrics-token-0123456789';

function consoleDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'iot-health-console-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
  return dir;
}

forEachDb((suite) => {
  // With a built console, so that a miss would show its HTML.
  const build = (health?: Health) =>
    buildTestApp(suite.db, {
      config: {
        ...loadConfig({ LOG_LEVEL: 'silent', CONSOLE_DIR: consoleDir() }),
        SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
      },
      ...(health ? { health } : {}),
    });

  it('answers live and ready as JSON with each check, and 404 JSON under /health and /api', async () => {
    const app = build();
    try {
      const live = await app.inject({ method: 'GET', url: '/health/live' });
      expect([live.statusCode, live.json()]).toEqual([200, { status: 'live' }]);
      const ready = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.headers['content-type']).toContain('application/json');
      const body = ready.json();
      expect(body).toMatchObject({
        status: 'ready',
        draining: false,
        checks: { database: { ok: true }, migrations: { ok: true } },
      });
      expect(typeof body.checks.database.latency_ms).toBe('number');
      for (const url of ['/health/nothing', '/api/nothing', '/api/v1/nothing', '/health']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.headers['content-type'], url).toContain('application/json');
        if (url !== '/health') expect(res.statusCode, url).toBe(404);
      }
      // A console route still gets the console.
      const page = await app.inject({ method: 'GET', url: '/devices' });
      expect(page.headers['content-type']).toContain('text/html');
    } finally {
      await app.close();
    }
  });

  it('is not ready while draining or when a check fails, with the failing check named', async () => {
    const health = new Health().add({
      name: 'event_log',
      check: () => Promise.reject(new Error('nats: connection refused')),
    });
    const app = build(health);
    try {
      const failing = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(failing.statusCode).toBe(503);
      expect(failing.json().checks.event_log).toMatchObject({ ok: false, error: 'nats: connection refused' });
      const draining = build(new Health());
      app.health.drain();
      draining.health.drain();
      const res = await draining.inject({ method: 'GET', url: '/health/ready' });
      expect([res.statusCode, res.json().draining]).toEqual([503, true]);
      // Liveness is not readiness: the process still runs.
      expect((await draining.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
      await draining.close();
    } finally {
      await app.close();
    }
  });

  it('is not ready when this build has a migration the database lacks', async () => {
    const app = build();
    try {
      const { rows } = await suite.db.query<{ version: number }>(
        'SELECT max(version)::int AS version FROM schema_migrations',
      );
      const latest = rows[0]?.version ?? 0;
      await suite.db.query('UPDATE schema_migrations SET version = -version WHERE version = $1', [latest]);
      try {
        const res = await app.inject({ method: 'GET', url: '/health/ready' });
        expect(res.statusCode).toBe(503);
        expect(res.json().checks.migrations).toMatchObject({
          ok: false,
          error: `migrations not applied yet: ${latest}`,
        });
      } finally {
        await suite.db.query('UPDATE schema_migrations SET version = -version WHERE version = $1', [-latest]);
      }
    } finally {
      await app.close();
    }
  });

  it('serves Prometheus text to loopback, to others only with METRICS_TOKEN', async () => {
    const app = build();
    try {
      await app.inject({ method: 'GET', url: '/api/v1/core/version' });
      const local = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
      expect(local.statusCode).toBe(200);
      expect(local.headers['content-type']).toContain('text/plain');
      expect(local.body).toMatch(/iot_http_request_seconds_count\{[^}]*route="\/api\/v1\/core\/version"/);
      expect(local.body).toContain('nodejs_eventloop_lag_seconds');
      expect(local.body).toContain('process_resident_memory_bytes');
      const remote = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
      expect(remote.statusCode).toBe(403);
      app.deps.config.METRICS_TOKEN = TOKEN;
      const wrong = await app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { authorization: 'Bearer wrong-token-0123456789' },
      });
      expect(wrong.statusCode).toBe(401);
      const right = await app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(right.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('isClientRoute', () => {
  it('keeps health and metrics away from the console', async () => {
    const { isClientRoute } = await import('./plugins/console-static');
    expect(['/health', '/health/ready', '/metrics', '/api/x'].map(isClientRoute)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(isClientRoute('/devices')).toBe(true);
  });
});
