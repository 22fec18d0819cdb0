/**
 * The job queue contract: every adapter must pass it (in-process always, BullMQ against the machine's
 * Redis). Import from '@iot/jobs/testing'; never from application code.
 */
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryJobKeyStore, type JobKeyStore } from '../job-keys';
import {
  defineJob,
  type JobContext,
  JobDeferredError,
  type JobDefinition,
  JobPayloadError,
  type JobQueue,
  PermanentJobError,
  type QueuePolicy,
} from '../types';

export interface ContractOptions {
  /** A fresh queue using `keys`; closed by the suite. */
  create(keys: JobKeyStore): Promise<JobQueue>;
}

/** Polls `check` until it returns true or `timeoutMs` passes (then throws with `what`). */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const TEST_POLICY: QueuePolicy = {
  concurrency: 4,
  keepCompletedMs: 60_000,
  keepFailedMs: 60_000,
  keepMaxJobs: 1_000,
};

const Payload = Type.Object({ id: Type.String(), n: Type.Optional(Type.Integer()) });

let counter = 0;
function testJob(overrides: Partial<JobDefinition<typeof Payload>> = {}): JobDefinition<typeof Payload> {
  counter += 1;
  return defineJob({
    name: `contract-${process.pid}-${counter}`,
    version: 1,
    payload: Payload,
    timeoutMs: 2_000,
    retry: { attempts: 3, delayMs: 50 },
    idempotencyKey: (p) => `test:${p.id}`,
    ...overrides,
  });
}

export function jobQueueContract(options: ContractOptions): void {
  const open: JobQueue[] = [];
  async function queue(keys: JobKeyStore = createMemoryJobKeyStore()): Promise<JobQueue> {
    const q = await options.create(keys);
    open.push(q);
    return q;
  }
  afterEach(async () => {
    await Promise.all(open.splice(0).map((q) => q.close()));
  });

  describe('job queue contract', () => {
    it('runs a job with its validated payload and the attempt context', async () => {
      const q = await queue();
      const job = testJob();
      const seen: { payload: unknown; ctx: JobContext }[] = [];
      q.process(
        job,
        async (payload, ctx) => {
          seen.push({ payload, ctx });
        },
        TEST_POLICY,
      );
      const result = await q.enqueue(job, { id: 'a', n: 1 });
      await waitFor(() => seen.length === 1, 'the job to run');
      expect(seen[0]!.payload).toEqual({ id: 'a', n: 1 });
      expect(seen[0]!.ctx).toMatchObject({
        idempotencyKey: 'test:a',
        attempt: 1,
        maxAttempts: 3,
        isLastAttempt: false,
        jobId: result.id,
      });
    });

    it('refuses a payload that fails its schema at enqueue, queueing nothing', async () => {
      const q = await queue();
      const job = testJob();
      let runs = 0;
      q.process(
        job,
        async () => {
          runs += 1;
        },
        TEST_POLICY,
      );
      await expect(q.enqueue(job, { id: 7 } as never)).rejects.toBeInstanceOf(JobPayloadError);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(runs).toBe(0);
    });

    it('runs the same idempotency key once, however often it is enqueued', async () => {
      const q = await queue();
      const job = testJob();
      let runs = 0;
      q.process(
        job,
        async () => {
          runs += 1;
        },
        TEST_POLICY,
      );
      const first = await q.enqueue(job, { id: 'same' });
      const second = await q.enqueue(job, { id: 'same', n: 2 });
      expect(second.id).toBe(first.id);
      await waitFor(() => runs === 1, 'one run');
      await q.enqueue(job, { id: 'same' }); // after completion, still kept as completed
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs).toBe(1);
    });

    it('skips the side effect when the key store says the key is done (queue forgot the job)', async () => {
      const keys = createMemoryJobKeyStore();
      const job = testJob();
      await keys.claim('test:done', job.name, 1000);
      await keys.complete('test:done', { sent: true });
      const q = await queue(keys);
      let runs = 0;
      q.process(
        job,
        async () => {
          runs += 1;
        },
        TEST_POLICY,
      );
      await q.enqueue(job, { id: 'done' });
      await q.enqueue(job, { id: 'other' });
      await waitFor(() => runs === 1, 'the other job');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(runs).toBe(1);
    });

    it('retries failures with exponential backoff (50, 100 ms) and succeeds on attempt 3', async () => {
      const q = await queue();
      const job = testJob({ retry: { attempts: 3, delayMs: 50 } });
      const times: number[] = [];
      q.process(
        job,
        async (_p, ctx) => {
          times.push(Date.now());
          if (ctx.attempt < 3) throw new Error(`boom ${ctx.attempt}`);
        },
        TEST_POLICY,
      );
      await q.enqueue(job, { id: 'r' });
      await waitFor(() => times.length === 3, 'three attempts');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(times).toHaveLength(3);
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(45);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(95);
      expect(await q.deadLetters(job.name)).toEqual([]);
    });

    it('dead-letters a job after its last attempt, with the error', async () => {
      const q = await queue();
      const job = testJob({ retry: { attempts: 2, delayMs: 20 } });
      const attempts: { attempt: number; last: boolean }[] = [];
      q.process(
        job,
        async (_p, ctx) => {
          attempts.push({ attempt: ctx.attempt, last: ctx.isLastAttempt });
          throw new Error('smtp down');
        },
        TEST_POLICY,
      );
      await q.enqueue(job, { id: 'dl' });
      await waitFor(async () => (await q.deadLetters(job.name)).length === 1, 'a dead letter');
      expect(attempts).toEqual([
        { attempt: 1, last: false },
        { attempt: 2, last: true },
      ]);
      const [letter] = await q.deadLetters(job.name);
      expect(letter).toMatchObject({
        name: job.name,
        idempotencyKey: 'test:dl',
        payload: { id: 'dl' },
        attempts: 2,
        error: expect.stringContaining('smtp down'),
      });
    });

    it('dead-letters a permanent error at once, without retry', async () => {
      const q = await queue();
      const job = testJob({ retry: { attempts: 5, delayMs: 20 } });
      let runs = 0;
      q.process(
        job,
        async () => {
          runs += 1;
          throw new PermanentJobError('device belongs to another company');
        },
        TEST_POLICY,
      );
      await q.enqueue(job, { id: 'p' });
      await waitFor(async () => (await q.deadLetters(job.name)).length === 1, 'a dead letter');
      expect(runs).toBe(1);
      expect((await q.deadLetters(job.name))[0]!.attempts).toBe(1);
    });

    it('fails an attempt that exceeds the timeout and aborts its signal', async () => {
      const q = await queue();
      const job = testJob({ timeoutMs: 100, retry: { attempts: 1, delayMs: 10 } });
      let aborted = false;
      q.process(
        job,
        async (_p, ctx) => {
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
          });
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        },
        TEST_POLICY,
      );
      const started = Date.now();
      await q.enqueue(job, { id: 't' });
      await waitFor(async () => (await q.deadLetters(job.name)).length === 1, 'the timeout');
      expect(Date.now() - started).toBeLessThan(900);
      expect(aborted).toBe(true);
      expect((await q.deadLetters(job.name))[0]!.error).toMatch(/timed out after 100 ms/);
    });

    it('refuses a job of another catalogue version without retry', async () => {
      const q = await queue();
      const v1 = testJob({ retry: { attempts: 3, delayMs: 10 } });
      const v2 = defineJob({ ...v1, version: 2 });
      let runs = 0;
      await q.enqueue(v1, { id: 'old' });
      q.process(
        v2,
        async () => {
          runs += 1;
        },
        TEST_POLICY,
      );
      await waitFor(async () => (await q.deadLetters(v1.name)).length === 1, 'a dead letter');
      expect(runs).toBe(0);
      expect((await q.deadLetters(v1.name))[0]!.error).toMatch(/version 1 is not the worker's version 2/);
    });

    it('runs at most `concurrency` jobs at once', async () => {
      const q = await queue();
      const job = testJob();
      let running = 0;
      let peak = 0;
      let done = 0;
      q.process(
        job,
        async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 80));
          running -= 1;
          done += 1;
        },
        { ...TEST_POLICY, concurrency: 2 },
      );
      for (let i = 0; i < 6; i++) await q.enqueue(job, { id: `c${i}` });
      await waitFor(() => done === 6, 'six jobs');
      expect(peak).toBe(2);
    });

    it('waits for a key held by another live attempt without using up an attempt', async () => {
      const keys = createMemoryJobKeyStore();
      const job = testJob({ timeoutMs: 150, retry: { attempts: 1, delayMs: 10 } });
      // Another worker claimed the key (lease 2 x 150 ms) and died without finishing.
      await keys.claim('test:held', job.name, 300);
      const q = await queue(keys);
      const runs: number[] = [];
      const started = Date.now();
      q.process(
        job,
        async (_p, ctx) => {
          runs.push(ctx.attempt);
        },
        TEST_POLICY,
      );
      await q.enqueue(job, { id: 'held' });
      await waitFor(() => runs.length === 1, 'the take-over after the lease');
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      // One attempt allowed, and it was not used up by waiting: the run is attempt 1.
      expect(runs).toEqual([1]);
      expect(await q.deadLetters(job.name)).toEqual([]);
    });

    it('puts a deferred job back for its delay without using up an attempt, and tells a first run', async () => {
      const keys = createMemoryJobKeyStore();
      const q = await queue(keys);
      const job = testJob({ retry: { attempts: 1, delayMs: 10 } });
      const runs: { attempt: number; firstRun: boolean; at: number }[] = [];
      const started = Date.now();
      q.process(
        job,
        async (_p, ctx) => {
          runs.push({ attempt: ctx.attempt, firstRun: ctx.firstRun, at: Date.now() - started });
          if (runs.length === 1) throw new JobDeferredError('rate limit of the channel used up', 200);
        },
        TEST_POLICY,
      );
      await q.enqueue(job, { id: 'deferred' });
      await waitFor(() => runs.length === 2, 'the run after the deferral');
      // The deferral released the claim: the second run is attempt 1 again, its claim new.
      expect(runs.map((r) => [r.attempt, r.firstRun])).toEqual([
        [1, true],
        [1, true],
      ]);
      expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(150);
      expect(await q.deadLetters(job.name)).toEqual([]);
    });

    it('runs a job enqueued with `claimed` under the enqueuer claim, once, as a first run', async () => {
      const memory = createMemoryJobKeyStore();
      const claims: string[] = [];
      const keys: JobKeyStore = {
        ...memory,
        claim: (key, name, lease) => {
          claims.push(key);
          return memory.claim(key, name, lease);
        },
      };
      const q = await queue(keys);
      const job = testJob();
      const runs: { attempt: number; firstRun: boolean }[] = [];
      q.process(
        job,
        async (_p, ctx) => {
          runs.push({ attempt: ctx.attempt, firstRun: ctx.firstRun });
        },
        TEST_POLICY,
      );
      expect(q.startsClaimed(job.name)).toBe(true);
      expect(q.startsClaimed('no-such-job')).toBe(false);
      // The producer's transaction claimed the key (claimJobKeys does so in job_keys).
      await memory.claim('test:pre', job.name, 4_000);
      await q.enqueue(job, { id: 'pre' }, { claimed: true });
      await waitFor(async () => (await memory.claim('test:pre', job.name, 4_000)).state === 'done', 'done');
      expect(runs).toEqual([{ attempt: 1, firstRun: true }]);
      expect(claims).toEqual([]);
      // Handed over again (a redelivery): the key is done, nothing runs twice.
      await q.enqueue(job, { id: 'pre' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(runs).toHaveLength(1);
    });

    it('gives a `claimed` key back when no processor runs the job here, so the worker claims it', async () => {
      const keys = createMemoryJobKeyStore();
      const q = await queue(keys);
      const job = testJob();
      expect(q.startsClaimed(job.name)).toBe(false);
      await keys.claim('test:elsewhere', job.name, 60_000);
      await q.enqueue(job, { id: 'elsewhere' }, { claimed: true });
      const runs: boolean[] = [];
      q.process(
        job,
        async (_p, ctx) => {
          runs.push(ctx.firstRun);
        },
        TEST_POLICY,
      );
      // Well within the 60 s lease: the claim was given back, not waited out.
      await waitFor(() => runs.length === 1, 'the run', 5_000);
      expect(runs).toEqual([true]);
    });

    it('retries a `claimed` job whose first attempt failed, counting it, then dead-letters it', async () => {
      const keys = createMemoryJobKeyStore();
      const q = await queue(keys);
      const job = testJob({ retry: { attempts: 3, delayMs: 50 } });
      const runs: number[] = [];
      q.process(
        job,
        async (_p, ctx) => {
          runs.push(ctx.attempt);
          throw new Error(`attempt ${ctx.attempt} failed`);
        },
        TEST_POLICY,
      );
      await keys.claim('test:fails', job.name, 4_000);
      await q.enqueue(job, { id: 'fails' }, { claimed: true });
      await waitFor(async () => (await q.deadLetters(job.name)).length === 1, 'the dead letter');
      expect(runs).toEqual([1, 2, 3]);
      const [letter] = await q.deadLetters(job.name);
      expect(letter).toMatchObject({
        idempotencyKey: 'test:fails',
        attempts: 3,
        error: 'Error: attempt 3 failed',
      });
    });

    it('forgets the oldest finished jobs beyond keepMaxJobs (their keys can be enqueued again)', async () => {
      // No key store: only the queue's own retention decides here.
      const claimAll: JobKeyStore = {
        claim: async () => ({ state: 'claimed', fresh: true }),
        complete: async () => {},
        release: async () => {},
      };
      const q = await queue(claimAll);
      const job = testJob();
      const runs: string[] = [];
      q.process(
        job,
        async (payload) => {
          runs.push(payload.id);
        },
        { ...TEST_POLICY, concurrency: 1, keepMaxJobs: 2 },
      );
      for (const id of ['a', 'b', 'c', 'd']) await q.enqueue(job, { id });
      await waitFor(() => runs.length === 4, 'four jobs');
      // The in-process adapter prunes at most once a second, on a job's completion.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await q.enqueue(job, { id: 'e' });
      await waitFor(() => runs.length === 5, 'the fifth job');
      // The handler has started; give the queue time to finish its bookkeeping (and prune).
      await new Promise((resolve) => setTimeout(resolve, 200));
      await q.enqueue(job, { id: 'a' }); // forgotten: runs again
      await q.enqueue(job, { id: 'e' }); // kept: deduplicated
      await waitFor(() => runs.length === 6, 'a again');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(runs).toEqual(['a', 'b', 'c', 'd', 'e', 'a']);
    });

    it('starts a delayed job no earlier than its delay', async () => {
      const q = await queue();
      const job = testJob();
      let ranAt = 0;
      q.process(
        job,
        async () => {
          ranAt = Date.now();
        },
        TEST_POLICY,
      );
      const started = Date.now();
      await q.enqueue(job, { id: 'd' }, { delayMs: 300 });
      await waitFor(() => ranAt > 0, 'the delayed job');
      expect(ranAt - started).toBeGreaterThanOrEqual(290);
    });
  });
}
