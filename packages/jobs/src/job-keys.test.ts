import { forEachDb } from '@iot/db/testing';
import { describe, expect, it } from 'vitest';
import { createDbJobKeyStore } from './job-keys';

describe('job_keys store', () => {
  forEachDb((suite) => {
    it('claims a new key, reports a running claim busy and a finished one done with its result', async () => {
      const keys = createDbJobKeyStore(suite.db);
      const key = `k:${Math.random()}`;
      expect(await keys.claim(key, 'notify.action', 60_000)).toEqual({ state: 'claimed' });
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

    it('hands a released key to the next claim at once', async () => {
      const keys = createDbJobKeyStore(suite.db);
      const key = `k:${Math.random()}`;
      await keys.claim(key, 'notify.action', 60_000);
      await keys.release(key);
      expect(await keys.claim(key, 'notify.action', 60_000)).toEqual({ state: 'claimed' });
    });

    it('lets a claim whose lease ran out (worker died) be taken over, never a finished one', async () => {
      const keys = createDbJobKeyStore(suite.db);
      const key = `k:${Math.random()}`;
      await keys.claim(key, 'notify.action', 50);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await keys.claim(key, 'notify.action', 50)).toEqual({ state: 'claimed' });
      await keys.complete(key, null);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect((await keys.claim(key, 'notify.action', 50)).state).toBe('done');
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
