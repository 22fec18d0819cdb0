import { afterEach, describe, expect, it } from 'vitest';
import type { EventLog, LogRecord, PublishRecord, SubscribeOptions, Subscription } from '../types';

export interface ContractInstance {
  log: EventLog;
  /** A topic no other test run uses. */
  topic: string;
  /** Closes this instance's connections, keeping the topic (a later instance may reopen it). */
  close(): Promise<void>;
  /** Closes and deletes the topic with everything in it. */
  destroy(): Promise<void>;
}

export interface ContractFactoryOptions {
  /** Reopen this topic (restart case); otherwise make a fresh unique one. */
  topic?: string;
  /** Bounded adapters: capacity of the log for the back-pressure case. */
  capacity?: number;
}

export type ContractFactory = (options: ContractFactoryOptions) => Promise<ContractInstance>;

export interface ContractFeatures {
  /** The committed position survives closing the instance (server adapters). */
  durable: boolean;
  /** The adapter has a bounded capacity on which `publish` waits (in-process). */
  bounded: boolean;
}

interface Json {
  device: string;
  seq: number;
}

const fast: Pick<SubscribeOptions, 'retry'> = { retry: { initialMs: 20, maxMs: 200 } };

/** Polls until `check` holds; the message names what did not happen. */
export async function waitFor(check: () => boolean | Promise<boolean>, message: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function records(devices: number, perDevice: number, prefix = 'dev'): PublishRecord[] {
  const out: PublishRecord[] = [];
  // Interleaved the way uplinks arrive: every device's n-th record before any device's n+1-th.
  for (let seq = 0; seq < perDevice; seq++) {
    for (let d = 0; d < devices; d++)
      out.push({ key: `${prefix}-${d}`, value: { device: `${prefix}-${d}`, seq } });
  }
  return out;
}

function idOf(record: LogRecord<Json>): string {
  return `${record.value.device}#${record.value.seq}`;
}

/**
 * The event log contract, written once and run against every adapter that can be reached
 * (in-process always, NATS JetStream on the machine's server, Kafka where a broker is configured).
 */
export function eventLogContract(name: string, factory: ContractFactory, features: ContractFeatures): void {
  describe(`event log contract: ${name}`, () => {
    const open: ContractInstance[] = [];
    const subscriptions: Subscription[] = [];

    async function create(options: ContractFactoryOptions = {}): Promise<ContractInstance> {
      const instance = await factory(options);
      open.push(instance);
      return instance;
    }

    async function consume(
      log: EventLog,
      topic: string,
      group: string,
      options: Partial<SubscribeOptions> = {},
      onBatch?: (batch: LogRecord<Json>[]) => Promise<void> | void,
    ) {
      const batches: LogRecord<Json>[][] = [];
      const subscription = await log.subscribe<Json>(
        topic,
        group,
        async (batch) => {
          await onBatch?.(batch);
          batches.push(batch);
        },
        { maxBatch: 50, maxWaitMs: 20, ...fast, ...options },
      );
      subscriptions.push(subscription);
      return { batches, subscription, all: () => batches.flat() };
    }

    afterEach(async () => {
      await Promise.all(subscriptions.splice(0).map((subscription) => subscription.stop()));
      const instances = open.splice(0);
      // The last instance of a topic deletes it; earlier ones (restart case) only close.
      for (const [i, instance] of instances.entries()) {
        const later = instances.slice(i + 1).some((other) => other.topic === instance.topic);
        await (later ? instance.close() : instance.destroy());
      }
    });

    it('hands a published record to a consumer unchanged: JSON value, bytes value, headers, key', async () => {
      const { log, topic } = await create();
      const bytes = new Uint8Array([0, 1, 2, 254, 255]);
      const before = Date.now();
      await log.publish(topic, [
        {
          key: 'dev-a',
          value: { temperature: 21.5, tags: ['x'], nested: { ok: true } },
          headers: { source: 'mqtt' },
        },
        { key: 'dev-a', value: bytes },
        { key: 'dev-b', value: [1, 2, 3] },
      ]);
      // Subscribing after publishing: a new group starts at the oldest record held.
      const { all } = await consume(log, topic, 'round-trip');
      await waitFor(() => all().length >= 3, 'three records delivered');
      const received = all() as LogRecord<unknown>[];
      expect(received).toHaveLength(3);
      const a = received.filter((r) => r.key === 'dev-a');
      expect(a.map((r) => r.value)).toEqual([
        { temperature: 21.5, tags: ['x'], nested: { ok: true } },
        bytes,
      ]);
      expect(a[1]!.value).toBeInstanceOf(Uint8Array);
      expect(a[0]!.headers).toEqual({ source: 'mqtt' });
      expect(a[1]!.headers).toEqual({});
      expect(BigInt(a[1]!.offset)).toBeGreaterThan(BigInt(a[0]!.offset));
      expect(a[0]!.partition).toBe(a[1]!.partition);
      expect(received.find((r) => r.key === 'dev-b')!.value).toEqual([1, 2, 3]);
      for (const record of received) {
        expect(record.topic).toBe(topic);
        expect(record.timestamp).toBeGreaterThanOrEqual(before - 1000);
        expect(record.timestamp).toBeLessThanOrEqual(Date.now() + 1000);
      }
      await waitFor(async () => (await log.lag(topic, 'round-trip')) === 0, 'lag back to 0 after commit');
    });

    it('refuses a header in the reserved iot- namespace and a value JSON cannot carry', async () => {
      const { log, topic } = await create();
      await expect(log.publish(topic, [{ key: 'k', value: {}, headers: { 'iot-ct': 'x' } }])).rejects.toThrow(
        /reserved/,
      );
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      await expect(log.publish(topic, [{ key: 'k', value: cyclic }])).rejects.toThrow();
    });

    it('keeps per-key order across many keys (50 devices x 40 uplinks, batches of 17)', async () => {
      const { log, topic } = await create();
      const all = records(50, 40);
      const { all: received } = await consume(log, topic, 'order', { maxBatch: 17 });
      for (let i = 0; i < all.length; i += 100) await log.publish(topic, all.slice(i, i + 100));
      await waitFor(() => received().length >= 2000, '2000 records delivered');
      const seqs = new Map<string, number[]>();
      for (const record of received()) {
        const list = seqs.get(record.key) ?? [];
        list.push(record.value.seq);
        seqs.set(record.key, list);
      }
      expect(seqs.size).toBe(50);
      const expected = Array.from({ length: 40 }, (_, i) => i);
      for (const list of seqs.values()) expect(list).toEqual(expected);
    });

    it('gives every record to each of two groups', async () => {
      const { log, topic } = await create();
      const storage = await consume(log, topic, 'storage-writer');
      const rules = await consume(log, topic, 'rules-worker');
      await log.publish(topic, records(20, 10));
      await waitFor(() => storage.all().length >= 200 && rules.all().length >= 200, 'both groups got 200');
      const ids = (list: LogRecord<Json>[]) => new Set(list.map(idOf));
      expect(ids(storage.all()).size).toBe(200);
      expect(ids(rules.all()).size).toBe(200);
      expect(storage.all()).toHaveLength(200);
      expect(rules.all()).toHaveLength(200);
    });

    it('splits one group between two consumers without duplicates while healthy', async () => {
      const { log, topic } = await create();
      // Publishing first creates the topic, so a Kafka group can be assigned its partitions.
      await log.publish(topic, [{ key: 'warm-up', value: { device: 'warm-up', seq: 0 } }]);
      const one = await consume(log, topic, 'shared');
      const two = await consume(log, topic, 'shared');
      // Members learn of a rebalance one after the other: wait until both report disjoint shares.
      const split = () => {
        const a = one.subscription.partitions();
        const b = two.subscription.partitions();
        return a.length > 0 && b.length > 0 && a.every((p) => !b.includes(p));
      };
      await waitFor(split, 'both members own partitions, none twice');
      await log.publish(topic, records(100, 4));
      await waitFor(() => one.all().length + two.all().length >= 401, '401 records delivered');
      const received = [...one.all(), ...two.all()];
      expect(received).toHaveLength(401);
      expect(new Set(received.map(idOf)).size).toBe(401);
      expect(one.all().length).toBeGreaterThan(0);
      expect(two.all().length).toBeGreaterThan(0);
      // A key belongs to one member at a time: no device's records were split between them.
      const keysOne = new Set(one.all().map((r) => r.key));
      expect(two.all().filter((r) => keysOne.has(r.key))).toEqual([]);
    });

    it('redelivers a failed batch with backoff and loses nothing', async () => {
      const { log, topic } = await create();
      const attempts = new Map<string, number>();
      const errors: number[] = [];
      const { all } = await consume(
        log,
        topic,
        'flaky',
        {
          maxBatch: 10,
          onError: (_error, info) => errors.push(info.attempt),
        },
        (batch) => {
          // The batch holding dev-3#5 fails twice, then succeeds.
          if (batch.some((r) => idOf(r) === 'dev-3#5')) {
            const seen = (attempts.get('dev-3#5') ?? 0) + 1;
            attempts.set('dev-3#5', seen);
            if (seen <= 2) throw new Error(`storage unavailable (attempt ${seen})`);
          }
        },
      );
      await log.publish(topic, records(10, 10));
      await waitFor(() => all().length >= 100, '100 records committed');
      expect(attempts.get('dev-3#5')).toBe(3);
      expect(errors).toEqual([1, 2]);
      expect(new Set(all().map(idOf)).size).toBe(100);
      expect(all()).toHaveLength(100);
      // Order per key holds across the redelivery.
      const dev3 = all()
        .filter((r) => r.key === 'dev-3')
        .map((r) => r.value.seq);
      expect(dev3).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      await waitFor(async () => (await log.lag(topic, 'flaky')) === 0, 'lag back to 0');
    });

    it(`resumes from the committed position after stop and restart${features.durable ? ' of the whole log instance' : ' (within the process)'}`, async () => {
      const first = await create();
      const { topic } = first;
      const before = await consume(first.log, topic, 'resume');
      await first.log.publish(topic, records(10, 5, 'old'));
      await waitFor(() => before.all().length >= 50, 'first 50 delivered');
      await before.subscription.stop();
      await first.log.publish(topic, records(10, 3, 'new'));
      let log = first.log;
      if (features.durable) {
        await first.close();
        log = (await create({ topic })).log;
      }
      expect(await log.lag(topic, 'resume')).toBe(30);
      const after = await consume(log, topic, 'resume');
      await waitFor(() => after.all().length >= 30, 'the 30 new records delivered');
      // Give a wrongly rewound consumer the chance to show old records.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(after.all().every((r) => r.key.startsWith('new-'))).toBe(true);
      expect(after.all()).toHaveLength(30);
    });

    it('hands out batches of at most maxBatch, filling them when records wait (maxBatch 7)', async () => {
      const { log, topic } = await create();
      await log.publish(
        topic,
        Array.from({ length: 200 }, (_, seq) => ({
          key: 'one-device',
          value: { device: 'one-device', seq },
        })),
      );
      const { batches, all } = await consume(log, topic, 'batches', { maxBatch: 7, maxWaitMs: 50 });
      await waitFor(() => all().length >= 200, '200 delivered');
      const sizes = batches.map((batch) => batch.length);
      expect(Math.max(...sizes)).toBe(7);
      // 200 waiting records in batches of 7 are 29 batches when they fill; allow a few partial ones.
      expect(batches.length).toBeLessThanOrEqual(35);
      expect(all().map((r) => r.value.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    });

    it('hands over a partly filled batch after maxWaitMs', async () => {
      const { log, topic } = await create();
      const { all } = await consume(log, topic, 'partial', { maxBatch: 1000, maxWaitMs: 50 });
      await log.publish(topic, records(1, 3));
      await waitFor(() => all().length >= 3, 'the 3 records delivered without a full batch', 10_000);
    });

    if (features.bounded) {
      it('makes publish wait while the log is full (capacity 50) and never holds more', async () => {
        const capacity = 50;
        const { log, topic } = await create({ capacity });
        let maxDepth = 0;
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            maxDepth = Math.max(maxDepth, await log.depth(topic));
            await new Promise((resolve) => setImmediate(resolve));
          }
        })();
        const { all } = await consume(log, topic, 'slow', { maxBatch: 10, maxWaitMs: 0 }, async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
        });
        await log.publish(topic, records(30, 10));
        // publish resolved: everything but at most one full log must already be consumed.
        expect(all().length).toBeGreaterThanOrEqual(300 - capacity);
        await waitFor(() => all().length >= 300, 'all 300 consumed');
        sampling = false;
        await sampler;
        expect(maxDepth).toBeGreaterThan(0);
        expect(maxDepth).toBeLessThanOrEqual(capacity);
        expect(await log.depth(topic)).toBe(0);
      });

      it('keeps publish waiting while no group drains a full log', async () => {
        const { log, topic } = await create({ capacity: 20 });
        await log.publish(topic, records(20, 1));
        let done = false;
        const pending = log.publish(topic, records(5, 1, 'late')).then(() => {
          done = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(done).toBe(false);
        expect(await log.depth(topic)).toBe(20);
        const { all } = await consume(log, topic, 'drain');
        await pending;
        await waitFor(() => all().length >= 25, 'all 25 consumed');
      });
    }
  });
}
