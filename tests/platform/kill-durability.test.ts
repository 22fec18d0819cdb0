/**
 * #28 finding 6: in the embedded profile an acknowledged uplink must survive kill -9. The built platform
 * takes HTTP uplinks at about 200/s, is killed with SIGKILL mid-stream, restarts on the same DATA_DIR,
 * and every uplink that got its 202 is in the device's data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { type PlatformProcess, runPlatform } from '../support/run-platform.js';
import {
  signedInAsDemoMain,
  storedNumbers,
  streamToDemoSensor,
  type UplinkStream,
} from '../support/uplink-stream.js';

const dataDir = mkdtempSync(join(tmpdir(), 'iot-kill-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const RATE_PER_SECOND = 200;
const env = { DATA_DIR: dataDir, SIMULATE_DEVICES: '0' };

it('loses no acknowledged uplink when the platform is killed with SIGKILL', async () => {
  const first: PlatformProcess = await runPlatform(env);
  let stream: UplinkStream;
  // Only points from the stream count (the demo's own readings of this sensor are older). An uplink without
  // a time of its own is stored at its receive time cut to the second, so the window starts at a full second.
  const streamStart = Math.floor(Date.now() / 1000) * 1000;
  try {
    stream = await streamToDemoSensor(first, await signedInAsDemoMain(first), {
      ratePerSecond: RATE_PER_SECOND,
    });
    await new Promise((resolve) => setTimeout(resolve, 4000));
  } finally {
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
  }
  stream.stop();
  expect(stream.acknowledged.size).toBeGreaterThan(20);

  const second = await runPlatform(env);
  try {
    const stored = await storedNumbers(await signedInAsDemoMain(second), stream.device.id, streamStart);
    const lost = [...stream.acknowledged].filter((seq) => !stored.has(seq));
    expect({ acknowledged: stream.acknowledged.size, lost }).toEqual({
      acknowledged: stream.acknowledged.size,
      lost: [],
    });
  } finally {
    expect(await second.stop()).toBe(0);
  }
}, 300_000);
