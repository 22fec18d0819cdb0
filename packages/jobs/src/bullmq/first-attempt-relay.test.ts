import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { Queue } from 'bullmq';
import { Type } from 'typebox';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { jobIdFor } from '../job-id';
import { createMemoryJobKeyStore, type JobKeyStore } from '../job-keys';
import { TEST_POLICY, waitFor } from '../testing';
import { defineJob, type JobDefinition } from '../types';
import { BullmqJobQueue, deleteRedisPrefix } from './bullmq-queue';
import { createNatsFirstAttemptRelay } from './first-attempt-relay';

const REDIS_URL = 'redis://127.0.0.1:6379';
const NATS_URL = 'nats://127.0.0.1:4222';
const prefix = `test-relay-${randomBytes(6).toString('hex')}`;
const Payload = Type.Object({ id: Type.String() });

let counter = 0;
function testJob(): JobDefinition<typeof Payload> {
  counter += 1;
  return defineJob({
    name: `relay-${counter}`,
    version: 1,
    payload: Payload,
    timeoutMs: 2_000,
    retry: { attempts: 3, delayMs: 50 },
    idempotencyKey: (p) => `relay:${p.id}`,
  });
}

/** A key store that counts the claims made through it (a relayed first attempt makes none). */
function countingKeys(memory: JobKeyStore): JobKeyStore & { claims: string[] } {
  const claims: string[] = [];
  return {
    ...memory,
    claims,
    claim: (key, name, lease) => {
      claims.push(key);
      return memory.claim(key, name, lease);
    },
  };
}

const open: BullmqJobQueue[] = [];
async function queue(keys: JobKeyStore, relayTimeoutMs?: number): Promise<BullmqJobQueue> {
  const relay = createNatsFirstAttemptRelay({
    servers: NATS_URL,
    prefix,
    ...(relayTimeoutMs ? { timeoutMs: relayTimeoutMs } : {}),
  });
  const q = new BullmqJobQueue({ url: REDIS_URL, prefix, keys, relay });
  open.push(q);
  await q.ready();
  return q;
}

/** Until the relay is connected an offer is refused (queued instead): tests wait for it. */
async function relayReady(producer: BullmqJobQueue, name: string) {
  await waitFor(() => producer.startsClaimed(name), 'the relay');
  await new Promise((resolve) => setTimeout(resolve, 300));
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((q) => q.close()));
});
afterAll(async () => {
  await deleteRedisPrefix(REDIS_URL, prefix);
});

describe('first attempts relayed over NATS to a processor in another queue (NATS 4222, Redis 6379)', () => {
  it('starts a claimed job in the process that takes the offer, with no claim, and removes the back-up', async () => {
    const memory = createMemoryJobKeyStore();
    const producerKeys = countingKeys(memory);
    const consumerKeys = countingKeys(memory);
    const producer = await queue(producerKeys);
    const consumer = await queue(consumerKeys);
    const job = testJob();
    const runs: { attempt: number; firstRun: boolean }[] = [];
    consumer.process(
      job,
      async (_p, ctx) => void runs.push({ attempt: ctx.attempt, firstRun: ctx.firstRun }),
      TEST_POLICY,
    );
    await relayReady(producer, job.name);
    expect(producer.startsClaimed(job.name)).toBe(true);

    await memory.claim('relay:one', job.name, 60_000); // the producer's transaction claimed it
    await producer.enqueue(job, { id: 'one' }, { claimed: true });
    await waitFor(async () => (await memory.claim('relay:one', job.name, 60_000)).state === 'done', 'done');
    expect(runs).toEqual([{ attempt: 1, firstRun: true }]);
    expect(consumerKeys.claims).toEqual([]);
    // The back-up (due after the lease) is gone once the attempt succeeded: nothing waits or is delayed.
    await waitFor(
      async () => (await consumer.depth()).every((d) => d.waiting === 0 && d.running === 0),
      'no back-up',
    );
  });

  it('queues the job at once under a released claim when no process serves it', async () => {
    const keys = createMemoryJobKeyStore();
    const producer = await queue(keys);
    const job = testJob();
    await relayReady(producer, job.name);
    await keys.claim('relay:nobody', job.name, 60_000);
    await producer.enqueue(job, { id: 'nobody' }, { claimed: true });
    // A worker without a relay (so nothing is offered to it) takes it from the queue well within the
    // 60 s lease: the claim was given back, not waited out.
    const worker = new BullmqJobQueue({ url: REDIS_URL, prefix, keys });
    open.push(worker);
    const runs: boolean[] = [];
    worker.process(job, async (_p, ctx) => void runs.push(ctx.firstRun), TEST_POLICY);
    await waitFor(() => runs.length === 1, 'the run', 5_000);
    expect(runs).toEqual([true]);
  });

  it('leaves the claim held and the back-up delayed when an offer gets no answer', async () => {
    const keys = createMemoryJobKeyStore();
    const producer = await queue(keys, 300);
    const job = testJob();
    // Something on the subject that never answers, as a process that died after taking the offer.
    const nc = await connect({ servers: NATS_URL });
    const silent = nc.subscribe(`${prefix}.first.${job.name}`, { callback: () => {} });
    await nc.flush();
    try {
      await relayReady(producer, job.name);
      await keys.claim('relay:silent', job.name, 60_000);
      await producer.enqueue(job, { id: 'silent' }, { claimed: true });
      expect(await keys.claim('relay:silent', job.name, 60_000)).toMatchObject({ state: 'busy' });
      const [depth] = await producer.depth();
      expect(depth).toMatchObject({ job: job.name, waiting: 1, running: 0 });
    } finally {
      silent.unsubscribe();
      await nc.close();
    }
  });

  it('continues the attempt count in BullMQ when the relayed first attempt fails', async () => {
    const keys = createMemoryJobKeyStore();
    const producer = await queue(keys);
    const consumer = await queue(keys);
    const job = testJob();
    const runs: number[] = [];
    consumer.process(
      job,
      async (_p, ctx) => {
        runs.push(ctx.attempt);
        throw new Error(`attempt ${ctx.attempt} failed`);
      },
      TEST_POLICY,
    );
    await relayReady(producer, job.name);
    await keys.claim('relay:fails', job.name, 60_000);
    await producer.enqueue(job, { id: 'fails' }, { claimed: true });
    await waitFor(async () => (await consumer.deadLetters(job.name)).length === 1, 'the dead letter');
    expect(runs).toEqual([1, 2, 3]);
    expect((await consumer.deadLetters(job.name))[0]).toMatchObject({
      idempotencyKey: 'relay:fails',
      attempts: 3,
    });
  });

  it('runs attempt 2, not attempt 1 again, when the relayed attempt fails before its back-up landed', async () => {
    const keys = createMemoryJobKeyStore();
    const consumer = await queue(keys);
    const job = testJob();
    const runs: number[] = [];
    consumer.process(
      job,
      async (_p, ctx) => {
        runs.push(ctx.attempt);
        throw new Error(`attempt ${ctx.attempt} failed`);
      },
      TEST_POLICY,
    );
    // The producer's two halves by hand, in the order of the race: the offer is answered and its attempt
    // fails before the back-up (added alongside the offer) reached Redis.
    const envelope = { v: job.version, key: 'relay:late', payload: { id: 'late' } };
    const id = jobIdFor(job.name, envelope.key);
    await keys.claim(envelope.key, job.name, 60_000);
    const producer = createNatsFirstAttemptRelay({ servers: NATS_URL, prefix });
    const backUps = new Queue(job.name, { connection: { url: REDIS_URL }, prefix });
    try {
      const offer = Buffer.from(JSON.stringify({ id, envelope }));
      await waitFor(async () => (await producer.offer(job.name, offer)) === 'taken', 'the offer taken');
      await waitFor(() => runs.length === 1, 'the relayed attempt');
      // Until the consumer has put the back-up in place itself (it leaves none without the fix).
      await waitFor(async () => (await backUps.getJob(id)) !== undefined, 'its back-up', 1_000).catch(
        () => undefined,
      );
      await backUps.add(job.name, envelope, {
        jobId: id,
        attempts: job.retry.attempts,
        backoff: { type: 'iot-exponential' },
        delay: 2 * job.timeoutMs + 1_000,
      });
      await waitFor(async () => (await consumer.deadLetters(job.name)).length === 1, 'the dead letter');
      expect(runs).toEqual([1, 2, 3]);
    } finally {
      await backUps.close();
      await producer.close();
    }
  });

  it('refuses an offer when every slot is busy, and the job runs from the queue after', async () => {
    const keys = createMemoryJobKeyStore();
    const producer = await queue(keys);
    const consumer = await queue(keys);
    const job = testJob();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runs: { id: string; firstRun: boolean }[] = [];
    consumer.process(
      job,
      async (p, ctx) => {
        runs.push({ id: p.id, firstRun: ctx.firstRun });
        await gate;
      },
      { ...TEST_POLICY, concurrency: 1 },
    );
    await relayReady(producer, job.name);
    for (const id of ['a', 'b']) {
      await keys.claim(`relay:${id}`, job.name, 60_000);
      await producer.enqueue(job, { id }, { claimed: true });
    }
    await waitFor(() => runs.length === 1, 'the first run');
    release();
    await waitFor(() => runs.length === 2, 'the second run, from the queue', 5_000);
    expect(runs).toEqual([
      { id: 'a', firstRun: true },
      { id: 'b', firstRun: true },
    ]);
  });
});
