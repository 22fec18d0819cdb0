/**
 * Decodes per second for one user codec (Milesight EM320-TH on the fixture bytes of
 * cs-03) in the sandbox: one context reused across decodes (what ingest does) against a fresh
 * runtime per decode (the baseline), plus a built-in driver for scale. All in one process.
 *
 *   npx tsx packages/codecs/bench/decode.bench.ts [seconds per case, default 2]
 */
import { readFileSync } from 'node:fs';
import { CodecSandbox, getDriver, type UserCodec } from '../src/index.js';

const seconds = Number(process.argv[2] ?? 2);
const script = readFileSync(new URL('../examples/milesight-em320-th.js', import.meta.url), 'utf8');
const bytes = [0x01, 0x75, 0x5c, 0x03, 0x67, 0x34, 0x01, 0x04, 0x68, 0x65];
const recvTime = new Date();

function measure(name: string, decodeOnce: () => unknown): number {
  for (let i = 0; i < 50; i++) decodeOnce(); // warm up
  let count = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) decodeOnce();
    count += 100;
  }
  const rate = count / ((performance.now() - start) / 1000);
  console.log(`${name.padEnd(48)} ${Math.round(rate).toLocaleString('en-US').padStart(12)} decodes/s`);
  return rate;
}

const sandbox = await CodecSandbox.create();
const codec: UserCodec = { companyId: 1, codecId: 'em320-th', script };
const check = sandbox.decodeUplink(codec, { bytes, fPort: 85, recvTime });
if (JSON.stringify(check.data) !== '{"battery":92,"temperature":30.8,"humidity":50.5}')
  throw new Error(`unexpected decode: ${JSON.stringify(check)}`);

console.log(`node ${process.version}, ${seconds} s per case, codec ${script.length} characters`);
const reused = measure('sandbox, context reused per (company, codec)', () =>
  sandbox.decodeUplink(codec, { bytes, fPort: 85, recvTime }),
);
const fresh = measure('sandbox, fresh runtime per decode (baseline)', () => {
  sandbox.evict(1);
  return sandbox.decodeUplink(codec, { bytes, fPort: 85, recvTime });
});
const frame = Uint8Array.from([
  0x01, 0x00, 0xd7, 0x02, 0x8a, 0x27, 0x97, 0x00, 0x7b, 0x00, 0xe1, 0x00, 0x0c, 0x32, 0x00, 0x00, 0x3a, 0x98,
  0x64,
]);
const weather = getDriver('nbiot_weatherstation');
if (weather === undefined) throw new Error('no weather station driver');
measure('built-in driver nbiot_weatherstation (no sandbox)', () =>
  weather.decodeUplink({ bytes: frame, receivedAt: recvTime }),
);
console.log(`reused / fresh: ${(reused / fresh).toFixed(0)}x`);
sandbox.dispose();
