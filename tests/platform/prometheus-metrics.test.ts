/**
 * Metrics as an operator watches them (issue #29): Debian's `prometheus` started here scrapes the built
 * platform (`npm start`, a child process) every second; uplinks sent to its HTTP front door show up in a
 * PromQL query as exactly the number sent. Skipped, saying so, where the prometheus binary is missing
 * (`apt-get install prometheus`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../support/api-session.js';
import { freePort } from '../support/own-services.js';
import { type PlatformProcess, runPlatform } from '../support/run-platform.js';
import { waitFor } from '../support/wait-for.js';

const PROMETHEUS = '/usr/bin/prometheus';
const present = existsSync(PROMETHEUS);
if (!present)
  console.warn(`SKIPPED prometheus-metrics: ${PROMETHEUS} is missing (apt-get install prometheus)`);

let platform: PlatformProcess;
let prometheus: ChildProcess | undefined;
let promUrl: string;
let dir: string;

async function query(promql: string): Promise<number | undefined> {
  const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { data: { result: { value: [number, string] }[] } };
  const value = body.data.result[0]?.value[1];
  return value === undefined ? undefined : Number(value);
}

describe.skipIf(!present)('Prometheus scraping the platform', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'iot-test-prometheus-'));
    platform = await runPlatform(
      { DATA_DIR: join(dir, 'data'), SIMULATE_DEVICES: '0', HOST: '127.0.0.1' },
      300_000,
    );
    const target = new URL(platform.url).port;
    const promPort = await freePort();
    promUrl = `http://127.0.0.1:${promPort}`;
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'scrape_configs:',
        '  - job_name: iot',
        `    static_configs: [{ targets: ['127.0.0.1:${target}'] }]`,
        '',
      ].join('\n'),
    );
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
      ],
      { stdio: 'ignore' },
    );
    await waitFor('prometheus to scrape the platform', 60_000, async () =>
      (await query('up{job="iot"}').catch(() => undefined)) === 1 ? true : undefined,
    );
  }, 420_000);

  afterAll(async () => {
    if (prometheus) {
      const exited = new Promise((resolve) => prometheus?.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await platform?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('counts the uplinks sent in iot_uplinks_accepted_total', async () => {
    const session = new ApiSession(platform.url.replace('localhost', '127.0.0.1'));
    expect((await session.login('main@demo.test', 'DemoPass#2026')).status).toBe(200);
    const devices = await session.call<{ id: number; uuid: string; driver_id: string | null }[]>(
      'GET',
      '/api/v1/core/devices',
    );
    // A device with a built-in driver: its uplinks are timed in iot_codec_seconds.
    const device = devices.body.payload?.find((d) => d.driver_id !== null);
    if (!device) throw new Error('no demo device');
    const credentials = await session.call<{ token: string }>(
      'POST',
      `/api/v1/core/devices/${device.id}/credentials`,
    );
    const token = credentials.body.payload?.token ?? '';
    const promql = 'sum(iot_uplinks_accepted_total{job="iot",front_door="http"}) or vector(0)';
    const before = await query(promql);
    const banner = /Uplinks \(HTTP\):\s+(\S+)/.exec(platform.output())?.[1] ?? '';
    const ingest = banner.replace('localhost', '127.0.0.1');
    const SENT = 7;
    for (let i = 0; i < SENT; i++) {
      const res = await fetch(`${ingest}/uplinks/${device.uuid}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ temperature: 20 + i, message_id: `prom-${i}` }),
      });
      expect(res.status).toBe(202);
    }
    const refused = await fetch(`${ingest}/uplinks/${device.uuid}`, {
      method: 'POST',
      headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' },
      body: '{"temperature": 1}',
    });
    expect(refused.status).toBe(401);
    const after = await waitFor('the scraped counter to rise', 30_000, async () => {
      const value = await query(promql);
      return value !== undefined && value - (before ?? 0) >= SENT ? value : undefined;
    });
    expect(after - (before ?? 0)).toBe(SENT);
    const refusals = await waitFor('the refusal', 30_000, async () =>
      query('sum(iot_uplinks_refused_total{job="iot",front_door="http",reason="http_401"})'),
    );
    expect(refusals).toBe(1);
    expect(await query('sum(iot_http_request_seconds_count{job="iot"})')).toBeGreaterThan(0);
  }, 120_000);

  it('exports codec time, the job queue and the database connections', async () => {
    // The uplinks of the test before went through a built-in driver.
    const decoded = await waitFor('codec time', 30_000, async () =>
      query('sum(iot_codec_seconds_count{job="iot",kind="driver"})'),
    );
    expect(decoded).toBeGreaterThanOrEqual(7);
    // The embedded profile's one PGlite connection.
    expect(await query('iot_db_connections{job="iot",db="pglite",state="open"}')).toBe(1);
    expect(await query('sum(iot_db_connections{job="iot",db="pglite",state="in_use"})')).toBeLessThanOrEqual(
      1,
    );
    // The notifier's jobs, processed in this process: a depth and a retry counter from the start.
    expect(await query('count(iot_job_queue_depth{job="iot",state="waiting"})')).toBeGreaterThan(0);
    expect(await query('sum(iot_job_queue_depth{job="iot"})')).toBeGreaterThanOrEqual(0);
    expect(await query('count(iot_job_retries_total{job="iot"})')).toBeGreaterThan(0);
  }, 60_000);
});
