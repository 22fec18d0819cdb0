/**
 * #28 finding 6: in the embedded profile an acknowledged uplink must survive kill -9. The built platform
 * takes HTTP uplinks at about 200/s, is killed with SIGKILL mid-stream, restarts on the same DATA_DIR,
 * and every uplink that got its 202 is in the device's data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ApiSession } from '../support/api-session.js';
import { type PlatformProcess, runPlatform } from '../support/run-platform.js';

const dataDir = mkdtempSync(join(tmpdir(), 'iot-kill-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const RATE_PER_SECOND = 200;
const env = { DATA_DIR: dataDir, SIMULATE_DEVICES: '0' };

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

/** Posts {temperature: i / 10} (i counts up) at RATE_PER_SECOND until `stop` is called; collects the numbers i answered 202. */
function streamUplinks(url: string, token: string) {
  const acknowledged = new Set<number>();
  let seq = 0;
  const timer = setInterval(() => {
    for (let k = 0; k < RATE_PER_SECOND / 50; k++) {
      const mine = seq++;
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ temperature: mine / 10 }),
      }).then(
        (res) => {
          if (res.status === 202) acknowledged.add(mine);
        },
        () => undefined, // the process died before it answered: not acknowledged
      );
    }
  }, 20);
  return { acknowledged, sent: () => seq, stop: () => clearInterval(timer) };
}

it('loses no acknowledged uplink when the platform is killed with SIGKILL', async () => {
  const first = await runPlatform(env);
  let device: { id: number; uuid: string };
  let stream: ReturnType<typeof streamUplinks>;
  // Only points from the stream count (the demo's own readings of this sensor are older). An uplink without
  // a time of its own is stored at its receive time cut to the second, so the window starts at a full second.
  const streamStart = Math.floor(Date.now() / 1000) * 1000;
  try {
    const session = await signedIn(first);
    // A climate sensor of the demo fleet: its driver takes JSON temperature readings.
    const devices = await session.call<{ id: number; uuid: string; name: string }[]>(
      'GET',
      '/api/v1/core/devices',
    );
    device = devices.body.payload!.find((d) => d.name === 'Büro Klima')!;
    const issued = await session.call<{ token: string }>(
      'POST',
      `/api/v1/core/devices/${device.id}/credentials`,
    );
    stream = streamUplinks(`${ingestUrl(first)}/uplinks/${device.uuid}`, issued.body.payload!.token);
    await new Promise((resolve) => setTimeout(resolve, 4000));
  } finally {
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
  }
  stream.stop();
  expect(stream.acknowledged.size).toBeGreaterThan(20);

  const second = await runPlatform(env);
  try {
    const session = await signedIn(second);
    const series = await session.call<{ points: { data: { temperature?: number } }[]; downsampled: boolean }>(
      'GET',
      `/api/v1/core/data/${device.id}?data_fields=temperature&tsstart=${streamStart}&max_points=20000`,
    );
    expect(series.body.payload?.downsampled).toBe(false);
    const stored = new Set(
      series.body.payload!.points.map((p) => Math.round((p.data.temperature ?? -1) * 10)),
    );
    const lost = [...stream.acknowledged].filter((seq) => !stored.has(seq));
    expect({ acknowledged: stream.acknowledged.size, lost }).toEqual({
      acknowledged: stream.acknowledged.size,
      lost: [],
    });
  } finally {
    expect(await second.stop()).toBe(0);
  }
}, 300_000);
