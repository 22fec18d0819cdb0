import type { UplinkEnvelope } from '@iot/contracts/uplinks';
import { describe, expect, it } from 'vitest';
import { buildBatchRows, isCanonicalTime, isUplinkEnvelope } from './build-batch-rows.js';

const envelope = (
  measuredAt: string,
  messageId = 'm1',
  data: Record<string, number> = { t: 1 },
): UplinkEnvelope => ({
  v: 1,
  kind: 'uplink',
  deviceId: 5,
  companyId: 2,
  source: 'mqtt',
  receivedAt: '2026-01-01T00:00:00.000Z',
  measuredAt,
  messageId,
  data,
});

describe('buildBatchRows times', () => {
  it('takes toISOString text as it is and normalizes any other spelling', () => {
    for (const text of [
      '2026-03-04T05:06:07.089Z',
      '1999-12-31T23:59:59.999Z',
      '2026-01-31T00:00:00.000Z',
      '2026-02-28T00:00:00.000Z',
      '2024-02-28T00:00:00.000Z',
    ])
      expect(isCanonicalTime(text)).toBe(true);
    for (const text of [
      '2026-03-04T05:06:07Z',
      '2025-02-29T00:00:00.000Z',
      '2024-02-29T00:00:00.000Z',
      '2026-04-31T00:00:00.000Z',
      '2026-02-31T00:00:00.000Z',
      '2026-06-31T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z',
      '2026-01-01 00:00:00.000Z',
      '+012026-01-01T00:00:00.000Z',
    ])
      expect(isCanonicalTime(text)).toBe(false);
    const rows = buildBatchRows([
      envelope('2026-03-04T05:06:07Z', 'a'),
      envelope('2026-03-04T05:06:07.000Z', 'a'), // the same instant and message: stored once
      envelope('2025-02-29T00:00:00.000Z', 'b'), // no such day: March 1 as Date.parse reads it
      envelope('2024-02-29T10:00:00.000Z', 'c', { t: 2 }),
    ]);
    expect(rows.data.map((r) => r.created_at)).toEqual([
      '2026-03-04T05:06:07.000Z',
      '2025-03-01T00:00:00.000Z',
      '2024-02-29T10:00:00.000Z',
    ]);
    expect(rows.current[0]!.data).toEqual({ t: 1 });
    expect(rows.current[0]!.updated_at).toBe('2026-03-04T05:06:07.000Z');
    expect(isUplinkEnvelope(envelope('2026-03-04T05:06:07Z'))).toBe(true);
    expect(isUplinkEnvelope(envelope('not a time'))).toBe(false);
  });
});

describe('buildBatchRows downlink outcomes', () => {
  const report = (messageId: string, downlink: unknown): UplinkEnvelope => ({
    ...envelope('2026-02-01T12:00:00.000Z', messageId, {}),
    kind: 'log',
    source: 'chirpstack',
    log: { level: 5, message: 'downlink acknowledged by the device' },
    downlink: downlink as UplinkEnvelope['downlink'],
  });

  it('takes a log envelope’s outcome with the device and company it came for, and skips malformed ones', () => {
    const rows = buildBatchRows([
      report('ack:q-1', { reference: 'q-1', state: 'acknowledged' }),
      report('ack:q-2', { reference: 'q-2', state: 'failed', error: 'not acknowledged by the device' }),
      report('ack:q-3', { reference: 'q-3', state: 'failed' }),
      // From the log, so not trusted: each of these would otherwise fail the batch's statement or
      // move a downlink to a state the table does not have.
      report('ack:bad-1', { reference: 'q-4', state: 'sent' }),
      report('ack:bad-2', { reference: 42, state: 'acknowledged' }),
      report('ack:bad-3', { reference: '', state: 'acknowledged' }),
      report('ack:bad-4', 'q-5'),
      // An uplink never carries one.
      {
        ...envelope('2026-02-01T12:00:01.000Z', 'up-1'),
        downlink: { reference: 'q-6', state: 'acknowledged' },
      },
    ]);
    const at = '2026-02-01T12:00:00.000Z';
    expect(rows.downlinks).toEqual([
      { device_id: 5, company_id: 2, reference: 'q-1', state: 'acknowledged', error: null, at },
      {
        device_id: 5,
        company_id: 2,
        reference: 'q-2',
        state: 'failed',
        error: 'not acknowledged by the device',
        at,
      },
      { device_id: 5, company_id: 2, reference: 'q-3', state: 'failed', error: 'failed', at },
    ]);
    // Every report is still a device log entry.
    expect(rows.logs).toHaveLength(7);
  });
});
