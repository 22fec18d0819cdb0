import type { UplinkEnvelope } from '@iot/contracts/uplinks';
import { createInProcessEventLog, type EventLog } from '@iot/event-log';
import { describe, expect, it } from 'vitest';
import { UplinkPublisher } from './uplink-publisher.js';

function envelope(i: number): UplinkEnvelope {
  return {
    v: 1,
    kind: 'uplink',
    deviceId: (i % 7) + 1,
    companyId: 1,
    source: 'mqtt',
    receivedAt: '2026-01-01T00:00:00.000Z',
    measuredAt: '2026-01-01T00:00:00.000Z',
    messageId: `m${i}`,
    data: { n: i },
  };
}

describe('UplinkPublisher', () => {
  it('with maxCallsInFlight 4 keeps at most 4 log calls in flight and gathers what arrives meanwhile into the next ones', async () => {
    const inner = createInProcessEventLog({ partitions: 4, capacity: 10_000 });
    const calls: number[] = [];
    let active = 0;
    let maxActive = 0;
    // The real in-process log, each call held for 20 ms so that later envelopes arrive while it runs.
    const slow: EventLog = {
      kind: inner.kind,
      async publish(topic, records) {
        calls.push(records.length);
        active++;
        maxActive = Math.max(maxActive, active);
        try {
          await new Promise((resolve) => setTimeout(resolve, 20));
          await inner.publish(topic, records);
        } finally {
          active--;
        }
      },
      subscribe: (topic, group, handler, options) => inner.subscribe(topic, group, handler, options),
      lag: (topic, group) => inner.lag(topic, group),
      depth: (topic) => inner.depth(topic),
      close: () => inner.close(),
    } as EventLog;
    const publisher = new UplinkPublisher(slow, { topic: 'uplinks_publisher', maxCallsInFlight: 4 });
    const sent: Promise<void>[] = [];
    for (let turn = 0; turn < 40; turn++) {
      for (let i = 0; i < 10; i++) sent.push(publisher.publish([envelope(turn * 10 + i)]));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await Promise.all(sent);
    expect(maxActive).toBeLessThanOrEqual(4);
    expect(calls.reduce((a, b) => a + b, 0)).toBe(400);
    // 40 turns of 10: without the bound each turn would be its own call of 10.
    expect(calls.length).toBeLessThan(40);
    expect(Math.max(...calls)).toBeGreaterThan(10);
    expect(await inner.depth('uplinks_publisher')).toBe(400);
    expect(publisher.waiting).toBe(0);
    await inner.close();
  });

  it('rejects the callers of a call the log refuses and goes on with the next', async () => {
    const inner = createInProcessEventLog({ partitions: 1, capacity: 100 });
    await inner.close();
    const publisher = new UplinkPublisher(inner, { topic: 'uplinks_closed' });
    await expect(publisher.publish([envelope(1)])).rejects.toThrow();
    await expect(publisher.publish([envelope(2)])).rejects.toThrow();
    expect(publisher.waiting).toBe(0);
  });
});
