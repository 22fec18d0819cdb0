/**
 * Graceful shutdown (issue #29): the built platform takes HTTP uplinks at about 200/s and gets SIGTERM
 * mid-stream. It stops taking uplinks, finishes what it accepted and exits 0 within SHUTDOWN_TIMEOUT_SECONDS;
 * started again on the same DATA_DIR, every uplink that got its 202 is stored exactly once: nothing lost,
 * nothing duplicated (the SIGKILL case is kill-durability.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiSession } from '../support/api-session.js';
import { type PlatformProcess, runPlatform } from '../support/run-platform.js';

const dataDir = mkdtempSync(join(tmpdir(), 'iot-sigterm-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const RATE_PER_SECOND = 200;
const DEADLINE_SECONDS = 20;
const env = { DATA_DIR: dataDir, SIMULATE_DEVICES: '0', SHUTDOWN_TIMEOUT_SECONDS: String(DEADLINE_SECONDS) };

async function signedIn(platform: PlatformProcess): Promise<ApiSession> {
  const session = new ApiSession(platform.url);
  expect((await session.login('main@demo.test', 'DemoPass#2026')).status).toBe(200);
  return session;
}

function ingestUrl(platform: PlatformProcess): string {
  const match = /Uplinks \(HTTP\):\s+(\S+)/.exec(platform.output());
  if (!match?.[1]) throw new Error(`no HTTP front door in the banner:\n${platform.output()}`);
  return match[1].replace('localhost', '127.0.0.1');
}

/** Posts {temperature: i / 10} (i counts up) at RATE_PER_SECOND until stopped; collects the i answered 202. */
function streamUplinks(url: string, token: string) {
  const acknowledged = new Set<number>();
  let seq = 0;
  const timer = setInterval(() => {
    for (let k = 0; k < RATE_PER_SECOND / 50; k++) {
      const mine = seq++;
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ temperature: mine / 10, message_id: `sigterm-${mine}` }),
      }).then(
        (res) => {
          if (res.status === 202) acknowledged.add(mine);
        },
        () => undefined, // refused or closed while shutting down: not acknowledged
      );
    }
  }, 20);
  return { acknowledged, stop: () => clearInterval(timer) };
}

it('finishes what it accepted on SIGTERM under load: nothing lost, nothing duplicated', async () => {
  const first = await runPlatform(env);
  // Only points from the stream count; an uplink is stored at its receive time cut to the second.
  const streamStart = Math.floor(Date.now() / 1000) * 1000;
  const session = await signedIn(first);
  // A climate sensor of the demo fleet: its driver takes JSON temperature readings.
  const devices = await session.call<{ id: number; uuid: string; name: string }[]>(
    'GET',
    '/api/v1/core/devices',
  );
  const device = devices.body.payload?.find((d) => d.name === 'Büro Klima');
  if (!device) throw new Error('no demo climate sensor');
  const issued = await session.call<{ token: string }>(
    'POST',
    `/api/v1/core/devices/${device.id}/credentials`,
  );
  const stream = streamUplinks(
    `${ingestUrl(first)}/uplinks/${device.uuid}`,
    issued.body.payload?.token ?? '',
  );
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const signalled = Date.now();
  // The stream keeps sending while the platform shuts down.
  const code = await first.stop();
  const stoppedAfterMs = Date.now() - signalled;
  stream.stop();
  expect(code).toBe(0);
  expect(stoppedAfterMs).toBeLessThan(DEADLINE_SECONDS * 1000);
  expect(stream.acknowledged.size).toBeGreaterThan(20);
  // Answers still in flight settle before counting.
  await new Promise((resolve) => setTimeout(resolve, 500));

  const second = await runPlatform(env);
  try {
    const again = await signedIn(second);
    const series = await again.call<{ points: { data: { temperature?: number } }[]; downsampled: boolean }>(
      'GET',
      `/api/v1/core/data/${device.id}?data_fields=temperature&tsstart=${streamStart}&max_points=20000`,
    );
    expect(series.body.payload?.downsampled).toBe(false);
    const times = new Map<number, number>();
    for (const point of series.body.payload?.points ?? []) {
      const seq = Math.round((point.data.temperature ?? -1) * 10);
      times.set(seq, (times.get(seq) ?? 0) + 1);
    }
    const lost = [...stream.acknowledged].filter((seq) => !times.has(seq));
    const duplicated = [...times].filter(([, n]) => n > 1).map(([seq]) => seq);
    expect({ acknowledged: stream.acknowledged.size, lost, duplicated }).toEqual({
      acknowledged: stream.acknowledged.size,
      lost: [],
      duplicated: [],
    });
  } finally {
    expect(await second.stop()).toBe(0);
  }
}, 300_000);
