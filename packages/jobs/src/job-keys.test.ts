import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { claimJobKeys, createDbJobKeyStore } from './job-keys';

describe('job_keys store', () => {
  forEachDb((suite) => {
    it('claims a new key, reports a running claim busy and a finished one done with its result', async () => {
      const keys = createDbJobKeyStore(suite.db);
      const key = `k:${Math.random()}`;
      expect(await keys.claim(key, 'notify.action', 60_000)).toEqual({ state: 'claimed', fresh: true });
      const busy = await keys.claim(key, 'notify.action', 60_000);
      expect(busy).toEqual({ state: 'busy', retryAfterMs: expect.any(Number) });
      // The rest of the 60 s lease: a waiting job knows when to look again.
      expect((busy as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(55_000);
      expect((busy as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(60_000);
      await keys.complete(key, { messageId: 'm1' });
      expect(await keys.claim(key, 'notify.action', 60_000)).toEqual({
        state: 'done',
        result: { messageId: 'm1' },
      });
    });

    it('claims keys in the caller transaction: new ones only, held like any claim once committed', async () => {
      const keys = createDbJobKeyStore(suite.db);
      const known = `k:${Math.random()}`;
      const fresh = `k:${Math.random()}`;
      await keys.claim(known, 'notify.action', 60_000);
      await keys.complete(known, null);
      const claimed = await suite.db.transaction((tx) =>
        claimJobKeys(tx, [
          { key: fresh, jobName: 'notify.action' },
          { key: known, jobName: 'notify.action' },
          { key: fresh, jobName: 'notify.action' },
        ]),
      );
      expect([...claimed]).toEqual([fresh]);
      expect((await keys.claim(fresh, 'notify.action', 60_000)).state).toBe('busy');
      expect((await keys.claim(known, 'notify.action', 60_000)).state).toBe('done');
      // Given back (nobody here ran it): the worker's claim is new.
      await keys.release(fresh);
      expect(await keys.claim(fresh, 'notify.action', 60_000)).toEqual({ state: 'claimed', fresh: true });
    });

    it('hands a released key to the next claim at once', async () => {
      const keys = createDbJobKeyStore(suite.db);
      const key = `k:${Math.random()}`;
      await keys.claim(key, 'notify.action', 60_000);
      await keys.release(key);
      expect(await keys.claim(key, 'notify.action', 60_000)).toEqual({ state: 'claimed', fresh: true });
    });

    it('lets a claim whose lease ran out (worker died) be taken over, never a finished one', async () => {
      const keys = createDbJobKeyStore(suite.db);
      const key = `k:${Math.random()}`;
      await keys.claim(key, 'notify.action', 50);
      await new Promise((resolve) => setTimeout(resolve, 80));
      // Taken over, not new: the attempt that died may have started the side effect.
      expect(await keys.claim(key, 'notify.action', 50)).toEqual({ state: 'claimed', fresh: false });
      await keys.complete(key, null);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect((await keys.claim(key, 'notify.action', 50)).state).toBe('done');
    });

    it('answers concurrent claims of different keys (one coalesced statement) each by its own key', async () => {
      const keys = createDbJobKeyStore(suite.db);
      const base = `k:${Math.random()}`;
      await keys.claim(`${base}:done`, 'notify.action', 60_000);
      await keys.complete(`${base}:done`, { sent: 1 });
      await keys.claim(`${base}:held`, 'notify.action', 60_000);
      const results = await Promise.all(
        ['new-1', 'done', 'new-2', 'held', 'new-3'].map((k) =>
          keys.claim(`${base}:${k}`, 'notify.action', 60_000),
        ),
      );
      expect(results).toEqual([
        { state: 'claimed', fresh: true },
        { state: 'done', result: { sent: 1 } },
        { state: 'claimed', fresh: true },
        { state: 'busy', retryAfterMs: expect.any(Number) },
        { state: 'claimed', fresh: true },
      ]);
      await Promise.all([keys.complete(`${base}:new-1`, 1), keys.complete(`${base}:new-2`, 2)]);
      await keys.release(`${base}:new-3`);
      expect(
        await Promise.all(['new-1', 'new-2', 'new-3'].map((k) => keys.claim(`${base}:${k}`, 'x', 60_000))),
      ).toEqual([
        { state: 'done', result: 1 },
        { state: 'done', result: 2 },
        { state: 'claimed', fresh: true },
      ]);
    });

    it('lets exactly one of many concurrent claims win', async () => {
      const keys = createDbJobKeyStore(suite.db);
      const key = `k:${Math.random()}`;
      const results = await Promise.all(
        Array.from({ length: 8 }, () => keys.claim(key, 'notify.action', 60_000)),
      );
      expect(results.filter((r) => r.state === 'claimed')).toHaveLength(1);
    });
  });
});
