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
import { runPlatform } from '../support/run-platform.js';
import { signedInAsDemoMain, storedNumbers, streamToDemoSensor } from '../support/uplink-stream.js';

const dataDir = mkdtempSync(join(tmpdir(), 'iot-sigterm-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const RATE_PER_SECOND = 200;
const DEADLINE_SECONDS = 20;
const env = { DATA_DIR: dataDir, SIMULATE_DEVICES: '0', SHUTDOWN_TIMEOUT_SECONDS: String(DEADLINE_SECONDS) };

it('finishes what it accepted on SIGTERM under load: nothing lost, nothing duplicated', async () => {
  const first = await runPlatform(env);
  // Only points from the stream count; an uplink is stored at its receive time cut to the second.
  const streamStart = Math.floor(Date.now() / 1000) * 1000;
  const stream = await streamToDemoSensor(first, await signedInAsDemoMain(first), {
    ratePerSecond: RATE_PER_SECOND,
    messageIds: 'sigterm',
  });
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
    const times = await storedNumbers(await signedInAsDemoMain(second), stream.device.id, streamStart);
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
