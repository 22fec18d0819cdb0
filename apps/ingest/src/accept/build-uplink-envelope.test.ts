import { describe, expect, it } from 'vitest';
import type { CodecRunner } from '../decode/codec-runner.js';
import type { DeviceDirectory, IngestDevice } from '../devices/device-directory.js';
import { buildUplinkEnvelope } from './build-uplink-envelope.js';

const device: IngestDevice = {
  id: 7,
  companyId: 3,
  uuid: '6f1c1f7e-0000-4000-8000-000000000007',
  devEui: null,
  credentialsHash: null,
  driverId: null,
  codecId: null,
  state: 'ok',
};
// Devices without a codec never reach the directory or the codecs while decoding.
const deps = { directory: {} as DeviceDirectory, codecs: {} as CodecRunner };
const build = (json: Record<string, unknown>, receivedAt: string) =>
  buildUplinkEnvelope({ device, source: 'mqtt', payload: { json }, receivedAt: new Date(receivedAt) }, deps);

describe('buildUplinkEnvelope', () => {
  it.each([
    ['no id, no time: hash of the payload', { temperature: 1 }, { temperature: 1 }],
    ['own id, no time', { id: 'abc', temperature: 1 }, { id: 'abc', temperature: 1 }],
  ])('%s: a retry within the same second gets the same time and message id', async (_name, first, again) => {
    const a = await build(first, '2026-01-01T10:00:00.100Z');
    const b = await build(again, '2026-01-01T10:00:00.900Z');
    expect(a.measuredAt).toBe('2026-01-01T10:00:00.000Z');
    expect([b.measuredAt, b.messageId]).toEqual([a.measuredAt, a.messageId]);
  });

  it('gives different payloads in the same second different ids', async () => {
    const a = await build({ temperature: 1 }, '2026-01-01T10:00:00.100Z');
    const b = await build({ temperature: 2 }, '2026-01-01T10:00:00.200Z');
    expect(a.messageId).not.toBe(b.messageId);
  });

  it.each([
    [{ time: '2026-01-01T09:59:00.250Z' }, '2026-01-01T09:59:00.250Z'],
    [{ ts: 1767261540 }, '2026-01-01T09:59:00.000Z'],
    [{ timestamp: 1767261540250 }, '2026-01-01T09:59:00.250Z'],
    // A clock a week ahead is not believed: the receive time counts.
    [{ time: '2026-01-08T10:00:00Z' }, '2026-01-01T10:00:00.000Z'],
  ])('reads the measurement time from %j and keeps it out of the data', async (fields, expected) => {
    const envelope = await build({ ...fields, temperature: 5 }, '2026-01-01T10:00:00.400Z');
    expect(envelope.measuredAt).toBe(expected);
    expect(envelope.data).toEqual({ temperature: 5 });
  });

  it('turns bytes without a decoder into a decode failure carrying the raw bytes', async () => {
    const envelope = await buildUplinkEnvelope(
      { device, source: 'http', payload: { bytes: new Uint8Array([1, 2, 255]) }, receivedAt: new Date() },
      deps,
    );
    expect(envelope.kind).toBe('decode_failed');
    expect(envelope.raw).toBe(Buffer.from([1, 2, 255]).toString('base64'));
    expect(envelope.data).toEqual({});
  });
});
