import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NatsEventLog } from './nats/nats-event-log';
import { chooseEventLogAdapter, type EventLogConfig, openEventLog } from './open-event-log';

describe('chooseEventLogAdapter', () => {
  it.each<[EventLogConfig, string]>([
    [{ PROFILE: 'embedded' }, 'in-process'],
    [{ PROFILE: 'embedded', NATS_URL: 'nats://127.0.0.1:4222', KAFKA_BROKERS: 'k:9092' }, 'in-process'],
    [{ PROFILE: 'distributed', KAFKA_BROKERS: 'k1:9092,k2:9092' }, 'kafka'],
    [{ PROFILE: 'distributed', NATS_URL: 'nats://127.0.0.1:4222', KAFKA_BROKERS: 'k:9092' }, 'kafka'],
    [{ PROFILE: 'distributed', NATS_URL: 'nats://127.0.0.1:4222' }, 'nats'],
    [{ PROFILE: 'distributed', NATS_URL: 'nats://127.0.0.1:4222', KAFKA_BROKERS: '  ' }, 'nats'],
  ])('%o -> %s', (config, adapter) => {
    expect(chooseEventLogAdapter(config)).toBe(adapter);
  });

  it('refuses a distributed profile without a broker', () => {
    expect(() => chooseEventLogAdapter({ PROFILE: 'distributed' })).toThrow(/KAFKA_BROKERS or NATS_URL/);
  });
});

describe('openEventLog', () => {
  it.each<[EventLogConfig, string]>([
    [{ PROFILE: 'embedded' }, 'in-process'],
    [{ PROFILE: 'distributed', NATS_URL: 'nats://127.0.0.1:4222' }, 'nats'],
  ])('opens a working %o log', async (config, kind) => {
    const log = await openEventLog(config);
    const topic = `open_${randomUUID().replaceAll('-', '')}`;
    try {
      expect(log.kind).toBe(kind);
      await log.publish(topic, [{ key: 'k', value: { ok: true } }]);
      expect(await log.depth(topic)).toBe(1);
    } finally {
      if (log.kind === 'nats') await (log as NatsEventLog).deleteTopic(topic);
      await log.close();
    }
  });
});
