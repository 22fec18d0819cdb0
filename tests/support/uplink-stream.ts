/**
 * What the embedded platform's durability tests share (kill -9 and SIGTERM under load): the demo main
 * user's session, a stream of numbered HTTP uplinks to the demo's climate sensor, and the numbers stored.
 */
import { expect } from 'vitest';
import { ApiSession } from './api-session.js';
import type { PlatformProcess } from './run-platform.js';

export async function signedInAsDemoMain(platform: PlatformProcess): Promise<ApiSession> {
  const session = new ApiSession(platform.url);
  expect((await session.login('main@demo.test', 'DemoPass#2026')).status).toBe(200);
  return session;
}

function ingestUrl(platform: PlatformProcess): string {
  const match = /Uplinks \(HTTP\):\s+(\S+)/.exec(platform.output());
  if (!match?.[1]) throw new Error(`no HTTP front door in the banner:\n${platform.output()}`);
  return match[1].replace('localhost', '127.0.0.1');
}

export interface UplinkStream {
  device: { id: number; uuid: string };
  /** The numbers i whose uplink {temperature: i / 10} was answered 202. */
  acknowledged: Set<number>;
  stop: () => void;
}

/**
 * Posts {temperature: i / 10} (i counts up) to the demo's climate sensor "Büro Klima" (its driver takes
 * JSON temperatures) at `ratePerSecond` until stopped, with a fresh device token. `messageIds`: each
 * uplink carries `<prefix>-<i>` as its message id.
 */
export async function streamToDemoSensor(
  platform: PlatformProcess,
  session: ApiSession,
  options: { ratePerSecond: number; messageIds?: string },
): Promise<UplinkStream> {
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
  const url = `${ingestUrl(platform)}/uplinks/${device.uuid}`;
  const token = issued.body.payload?.token ?? '';
  const acknowledged = new Set<number>();
  let seq = 0;
  const timer = setInterval(() => {
    for (let k = 0; k < options.ratePerSecond / 50; k++) {
      const mine = seq++;
      const messageId = options.messageIds ? { message_id: `${options.messageIds}-${mine}` } : {};
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ temperature: mine / 10, ...messageId }),
      }).then(
        (res) => {
          if (res.status === 202) acknowledged.add(mine);
        },
        () => undefined, // the process died, refused or closed before it answered: not acknowledged
      );
    }
  }, 20);
  return { device, acknowledged, stop: () => clearInterval(timer) };
}

/** How often each streamed number is stored since `since` (ms): the raw points, never downsampled. */
export async function storedNumbers(
  session: ApiSession,
  deviceId: number,
  since: number,
): Promise<Map<number, number>> {
  const series = await session.call<{ points: { data: { temperature?: number } }[]; downsampled: boolean }>(
    'GET',
    `/api/v1/core/data/${deviceId}?data_fields=temperature&tsstart=${since}&max_points=20000`,
  );
  expect(series.body.payload?.downsampled).toBe(false);
  const times = new Map<number, number>();
  for (const point of series.body.payload?.points ?? []) {
    const seq = Math.round((point.data.temperature ?? -1) * 10);
    times.set(seq, (times.get(seq) ?? 0) + 1);
  }
  return times;
}
