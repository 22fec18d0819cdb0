import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { partitionForKey } from '../partition-for-key';
import { eventLogContract, waitFor } from '../testing/contract';
import type { LogRecord } from '../types';
import { createNatsEventLog } from './nats-event-log';
import { durableName } from './nats-names';
import { OFFSET_SCALE } from './pack';

// The machine's real nats-server with JetStream; every test uses its own topic (stream), deleted after.
const servers = '127.0.0.1:4222';

eventLogContract(
  'NATS JetStream',
  async ({ topic }) => {
    // Short leases so membership changes settle within a test; 8 partitions keep the consumer count low.
    const log = await createNatsEventLog({ servers, partitions: 8, leaseMs: 1500, maxAgeMs: 3_600_000 });
    const name = topic ?? `uplinks_${randomUUID().replaceAll('-', '')}`;
    return {
      log,
      topic: name,
      close: () => log.close(),
      destroy: async () => {
        await log.deleteTopic(name);
        await log.close();
      },
    };
  },
  { durable: true, bounded: false },
);

describe('NATS JetStream adapter', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function open(partitions = 8) {
    const log = await createNatsEventLog({ servers, partitions, leaseMs: 1500 });
    cleanup.push(() => log.close());
    return log;
  }

  it('stores a key on subject <topic>.<partitionForKey(key)>, one message per call and partition', async () => {
    const topic = `uplinks_${randomUUID().replaceAll('-', '')}`;
    const log = await open();
    cleanup.push(() => log.deleteTopic(topic));
    await log.publish(topic, [
      { key: 'device-17', value: { a: 1 } },
      { key: 'device-17', value: { a: 2 } },
      { key: 'device-99', value: { a: 3 } },
    ]);
    const nc = await connect({ servers });
    cleanup.push(() => nc.close());
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(topic, { subjects_filter: '>' });
    const expected: Record<string, number> = {};
    for (const key of ['device-17', 'device-99']) expected[`${topic}.${partitionForKey(key, 8)}`] = 1;
    // device-17's two records went as one pack (unless both keys share a partition: then all three).
    expect(info.state.subjects).toEqual(expected);
    expect(await log.depth(topic)).toBe(Object.keys(expected).length);
    // The lag counts records, not messages.
    expect(await log.lag(topic, 'nobody-yet')).toBe(3);
  });

  it('unpacks packed records in publish order with increasing offsets, split over batches of 7', async () => {
    const topic = `uplinks_${randomUUID().replaceAll('-', '')}`;
    const log = await open();
    cleanup.push(() => log.deleteTopic(topic));
    // One partition (same key) and 3 calls of 20: three packs of 20 records, each larger than maxBatch.
    for (let call = 0; call < 3; call++)
      await log.publish(
        topic,
        Array.from({ length: 20 }, (_, i) => ({
          key: 'dev',
          value: i % 5 === 4 ? new Uint8Array([call, i]) : { n: call * 20 + i },
          ...(i === 0 ? { headers: { call: String(call) } } : {}),
        })),
      );
    const nc = await connect({ servers });
    cleanup.push(() => nc.close());
    const info = await (await jetstreamManager(nc)).streams.info(topic);
    expect(info.state.messages).toBe(3);
    expect(await log.lag(topic, 'unpack')).toBe(60);
    const batches: LogRecord[][] = [];
    await log.subscribe(topic, 'unpack', async (batch) => void batches.push(batch), {
      maxBatch: 7,
      maxWaitMs: 10,
    });
    await waitFor(() => batches.flat().length >= 60, '60 records');
    const all = batches.flat();
    expect(all).toHaveLength(60);
    expect(batches.every((b) => b.length <= 7)).toBe(true);
    all.forEach((r, n) => {
      const call = Math.floor(n / 20);
      const i = n % 20;
      expect(r.value).toEqual(i % 5 === 4 ? new Uint8Array([call, i]) : { n });
      expect(r.headers).toEqual(i === 0 ? { call: String(call) } : {});
      expect(r.key).toBe('dev');
    });
    const offsets = all.map((r) => BigInt(r.offset));
    expect(offsets.every((o, n) => n === 0 || o > offsets[n - 1]!)).toBe(true);
    await waitFor(async () => (await log.lag(topic, 'unpack')) === 0, 'lag 0 after the last pack is acked');
  });

  it('hands a partition its next batch only after the server confirmed the previous batch’s ack', async () => {
    const topic = `uplinks_${randomUUID().replaceAll('-', '')}`;
    const log = await open();
    cleanup.push(() => log.deleteTopic(topic));
    // One key, one partition; one call per record, so each record is a message of its own.
    for (let seq = 0; seq < 12; seq++) await log.publish(topic, [{ key: 'dev', value: { seq } }]);
    const nc = await connect({ servers });
    cleanup.push(() => nc.close());
    const jsm = await jetstreamManager(nc);
    const durable = durableName('acks', partitionForKey('dev', 8));
    const floors: { previousSeq: number; ackFloor: number }[] = [];
    let previousSeq = 0;
    const seen: number[] = [];
    await log.subscribe<{ seq: number }>(
      topic,
      'acks',
      async (batch) => {
        // The batch before must be committed on the server before this one is handed over.
        if (previousSeq > 0) {
          const info = await jsm.consumers.info(topic, durable);
          floors.push({ previousSeq, ackFloor: info.ack_floor.stream_seq });
        }
        seen.push(...batch.map((r) => r.value.seq));
        previousSeq = Number(BigInt(batch[batch.length - 1]!.offset) / OFFSET_SCALE);
      },
      { maxBatch: 2, maxWaitMs: 5 },
    );
    await waitFor(() => seen.length >= 12, 'all 12 handled');
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(floors.length).toBeGreaterThanOrEqual(5);
    for (const { previousSeq, ackFloor } of floors) expect(ackFloor).toBeGreaterThanOrEqual(previousSeq);
    await waitFor(async () => (await log.lag(topic, 'acks')) === 0, 'lag 0 after the last ack');
  });

  it('refuses to open a topic with a different partition count than the stream was made with', async () => {
    const topic = `uplinks_${randomUUID().replaceAll('-', '')}`;
    const log = await open(8);
    cleanup.push(() => log.deleteTopic(topic));
    await log.publish(topic, [{ key: 'k', value: {} }]);
    const other = await open(4);
    await expect(other.publish(topic, [{ key: 'k', value: {} }])).rejects.toThrow(/partitions/);
  });

  it('hands a crashed member’s partitions and its unacked batch to the survivor, in key order', async () => {
    const topic = `uplinks_${randomUUID().replaceAll('-', '')}`;
    const crashing = await connect({ servers });
    const doomed = await createNatsEventLog({ connection: crashing, partitions: 8, leaseMs: 1500 });
    cleanup.push(() => doomed.close());
    const survivor = await open();
    cleanup.push(() => survivor.deleteTopic(topic));
    const records = Array.from({ length: 30 }, (_, seq) => ({ key: `dev-${seq % 3}`, value: { seq } }));
    await doomed.publish(topic, records);
    let release!: () => void;
    const hung = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: number[] = [];
    await doomed.subscribe<{ seq: number }>(
      topic,
      'writer',
      async (batch) => {
        seen.push(...batch.map((r) => r.value.seq));
        await hung; // the process "dies" while writing its first batches
      },
      { maxBatch: 5, maxWaitMs: 10 },
    );
    await waitFor(() => seen.length > 0, 'the doomed member took a batch');
    await crashing.close(); // no lease release, no ack: like a killed process
    const got: { key: string; seq: number }[] = [];
    await survivor.subscribe<{ seq: number }>(
      topic,
      'writer',
      async (batch) => {
        got.push(...batch.map((r) => ({ key: r.key, seq: r.value.seq })));
      },
      { maxBatch: 5, maxWaitMs: 10 },
    );
    await waitFor(() => got.length >= 30, 'survivor got all 30 after the leases expired', 15_000);
    release();
    expect(got).toHaveLength(30);
    for (const key of ['dev-0', 'dev-1', 'dev-2']) {
      const seqs = got.filter((r) => r.key === key).map((r) => r.seq);
      expect(seqs).toEqual(records.filter((r) => r.key === key).map((r) => r.value.seq));
    }
    expect(await survivor.lag(topic, 'writer')).toBe(0);
  });
  it('hands partitions over while records flow: no duplicates, every key still in order', async () => {
    const topic = `uplinks_${randomUUID().replaceAll('-', '')}`;
    // The stream goes after both members have stopped (cleanup runs in reverse), as in a deployment: a
    // cleanup that deleted the stream under two members' live consumers once hung past the hook's 120 s.
    const admin = await open();
    cleanup.push(() => admin.deleteTopic(topic));
    const first = await open();
    const second = await open();
    // One shared list in handling order: a handover that broke a key's order would show here.
    const handled: { member: string; key: string; seq: number }[] = [];
    const handler = (member: string) => async (batch: { key: string; value: unknown }[]) => {
      for (const r of batch) handled.push({ member, key: r.key, seq: (r.value as { seq: number }).seq });
    };
    const options = { maxBatch: 20, maxWaitMs: 10 };
    const one = await first.subscribe(topic, 'writer', handler('one'), options);
    for (let round = 0; round < 40; round++) {
      if (round === 10) await second.subscribe(topic, 'writer', handler('two'), options);
      await first.publish(
        topic,
        Array.from({ length: 25 }, (_, d) => ({ key: `dev-${d}`, value: { seq: round } })),
      );
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    await waitFor(() => handled.length >= 1000, 'all 1000 handled');
    expect(one.partitions().length).toBeGreaterThan(0);
    expect(one.partitions().length).toBeLessThan(8);
    expect(handled).toHaveLength(1000);
    expect(new Set(handled.map((h) => h.member))).toEqual(new Set(['one', 'two']));
    for (let d = 0; d < 25; d++) {
      const seqs = handled.filter((h) => h.key === `dev-${d}`).map((h) => h.seq);
      expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i));
    }
  });
});
