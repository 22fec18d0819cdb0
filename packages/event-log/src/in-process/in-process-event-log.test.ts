import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventLogContract, waitFor } from '../testing/contract';
import { createInProcessEventLog } from './in-process-event-log';

eventLogContract(
  'in-process',
  async ({ topic, capacity }) => {
    const log = createInProcessEventLog({ partitions: 8, capacity: capacity ?? 10_000 });
    return {
      log,
      topic: topic ?? `uplinks-${randomUUID()}`,
      close: () => log.close(),
      destroy: () => log.close(),
    };
  },
  { durable: false, bounded: true },
);

describe('in-process event log', () => {
  it.each([
    [{ partitions: 0 }, /partitions/],
    [{ partitions: 1.5 }, /partitions/],
    [{ capacity: 0 }, /capacity/],
  ])('refuses options %o', (options, message) => {
    expect(() => createInProcessEventLog(options)).toThrow(message);
  });

  it.each([
    [{ maxBatch: 0, maxWaitMs: 10 }, /maxBatch/],
    [{ maxBatch: 2.5, maxWaitMs: 10 }, /maxBatch/],
    [{ maxBatch: 10, maxWaitMs: -1 }, /maxWaitMs/],
  ])('refuses subscribe options %o', async (options, message) => {
    const log = createInProcessEventLog();
    await expect(log.subscribe('t', 'g', async () => undefined, options)).rejects.toThrow(message);
    await log.close();
  });

  it('counts lag per group and depth per topic, and trims once every group committed', async () => {
    const log = createInProcessEventLog({ partitions: 4, capacity: 100 });
    await log.publish(
      't',
      Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: { i } })),
    );
    expect(await log.depth('t')).toBe(30);
    expect(await log.lag('t', 'never-subscribed')).toBe(30);
    const fast = await log.subscribe('t', 'fast', async () => undefined, { maxBatch: 100, maxWaitMs: 0 });
    await waitFor(async () => (await log.lag('t', 'fast')) === 0, 'fast group done');
    expect(await log.depth('t')).toBe(0);
    let open = false;
    const slow = await log.subscribe(
      't',
      'slow',
      async () => {
        await waitFor(() => open, 'opened');
      },
      { maxBatch: 100, maxWaitMs: 0 },
    );
    await log.publish(
      't',
      Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, value: { i } })),
    );
    await waitFor(async () => (await log.lag('t', 'fast')) === 0, 'fast group done again');
    expect(await log.lag('t', 'slow')).toBe(10);
    expect(await log.depth('t')).toBe(10);
    open = true;
    await waitFor(async () => (await log.depth('t')) === 0, 'trimmed after the slow group');
    await Promise.all([fast.stop(), slow.stop()]);
    await log.close();
  });

  it('moves partitions to the remaining member when one stops, losing nothing', async () => {
    const log = createInProcessEventLog({ partitions: 6 });
    const got: string[] = [];
    const handler = async (batch: { key: string; value: unknown }[]) => {
      got.push(...batch.map((r) => `${r.key}:${(r.value as { i: number }).i}`));
    };
    const a = await log.subscribe('t', 'g', handler, { maxBatch: 5, maxWaitMs: 0 });
    const b = await log.subscribe('t', 'g', handler, { maxBatch: 5, maxWaitMs: 0 });
    const c = await log.subscribe('t', 'g', handler, { maxBatch: 5, maxWaitMs: 0 });
    expect([a.partitions(), b.partitions(), c.partitions()]).toEqual([
      [0, 3],
      [1, 4],
      [2, 5],
    ]);
    await log.publish(
      't',
      Array.from({ length: 60 }, (_, i) => ({ key: `k${i % 12}`, value: { i } })),
    );
    await b.stop();
    expect(b.partitions()).toEqual([]);
    expect([a.partitions(), c.partitions()]).toEqual([
      [0, 2, 4],
      [1, 3, 5],
    ]);
    await log.publish(
      't',
      Array.from({ length: 60 }, (_, i) => ({ key: `k${i % 12}`, value: { i: i + 60 } })),
    );
    await waitFor(() => got.length >= 120, 'all 120 delivered');
    expect(new Set(got).size).toBe(120);
    await log.close();
  });

  it('gives a batch whose member stopped during the backoff to the other member', async () => {
    const log = createInProcessEventLog({ partitions: 1 });
    const errors: number[] = [];
    const failing = await log.subscribe(
      't',
      'g',
      async () => {
        throw new Error('down');
      },
      {
        maxBatch: 10,
        maxWaitMs: 0,
        retry: { initialMs: 60_000 },
        onError: (_e, info) => errors.push(info.attempt),
      },
    );
    await log.publish('t', [{ key: 'k', value: { n: 1 } }]);
    await waitFor(() => errors.length === 1, 'first attempt failed');
    const got: unknown[] = [];
    const healthy = await log.subscribe(
      't',
      'g',
      async (batch) => {
        got.push(...batch.map((r) => r.value));
      },
      { maxBatch: 10, maxWaitMs: 0 },
    );
    // The stop does not wait out the 60 s backoff.
    await failing.stop();
    await waitFor(() => got.length === 1, 'redelivered to the healthy member');
    expect(got).toEqual([{ n: 1 }]);
    await healthy.stop();
    await log.close();
  });

  it('with ackAfterGroup, resolves a publish only once that group committed its records', async () => {
    const log = createInProcessEventLog({ partitions: 4, ackAfterGroup: 'storage' });
    const events: string[] = [];
    // Before the group exists nothing could ever commit: publish resolves on append, as without the option.
    await log.publish('t', [{ key: 'early', value: { n: 0 } }]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const options = { maxBatch: 100, maxWaitMs: 1 };
    await log.subscribe('t', 'rules', async () => undefined, options);
    await log.subscribe(
      't',
      'storage',
      async (batch) => {
        if (batch.some((r) => r.key.startsWith('k'))) await gate;
        events.push(`stored ${batch.map((r) => r.key).join(',')}`);
      },
      options,
    );
    const published = log
      .publish('t', [
        { key: 'k1', value: { n: 1 } },
        { key: 'k2', value: { n: 2 } },
      ])
      .then(() => events.push('acknowledged'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).not.toContain('acknowledged');
    release();
    await published;
    expect(events.at(-1)).toBe('acknowledged');
    expect(events.filter((e) => e.startsWith('stored')).join(' ')).toMatch(/k1/);
    expect(events.filter((e) => e.startsWith('stored')).join(' ')).toMatch(/k2/);
    await log.close();
  });

  it('with ackAfterGroup, rejects publishers still waiting for the commit when the log closes', async () => {
    const log = createInProcessEventLog({ ackAfterGroup: 'storage' });
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => {
      release = resolve;
    });
    await log.subscribe('t', 'storage', () => stuck, { maxBatch: 10, maxWaitMs: 1 });
    const waiting = log.publish('t', [{ key: 'a', value: {} }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const closing = log.close();
    await expect(waiting).rejects.toThrow(/closed before/);
    release();
    await closing;
  });

  it('rejects a publisher waiting on a full log when the log closes', async () => {
    const log = createInProcessEventLog({ capacity: 2 });
    await log.publish('t', [
      { key: 'a', value: {} },
      { key: 'b', value: {} },
    ]);
    const waiting = log.publish('t', [{ key: 'c', value: {} }]);
    await log.close();
    await expect(waiting).rejects.toThrow(/closed/);
  });

  it('copies published bytes, so a producer reusing its buffer changes nothing', async () => {
    const log = createInProcessEventLog();
    const buffer = new Uint8Array([1, 2, 3]);
    await log.publish('t', [{ key: 'k', value: buffer }]);
    buffer[0] = 99;
    const got: unknown[] = [];
    await log.subscribe('t', 'g', async (batch) => void got.push(...batch.map((r) => r.value)), {
      maxBatch: 1,
      maxWaitMs: 0,
    });
    await waitFor(() => got.length === 1, 'delivered');
    expect(got[0]).toEqual(new Uint8Array([1, 2, 3]));
    await log.close();
  });
});
