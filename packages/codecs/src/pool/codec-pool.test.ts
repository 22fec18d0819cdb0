import { afterAll, describe, expect, it } from 'vitest';
import { CodecPool } from './codec-pool.js';

const recvTime = new Date('2026-03-01T12:00:00.000Z');
const GOOD = {
  companyId: 2,
  codecId: 'good',
  script:
    'function decodeUplink(input) { return { data: { first: input.bytes[0] } }; }\nfunction encodeDownlink(input) { return { bytes: [input.data.level], fPort: 5 }; }',
};
const LOOP = { companyId: 1, codecId: 'loop', script: 'function decodeUplink() { for (;;) {} }' };

describe('codec pool', () => {
  // A generous load budget: a cold thread on the loaded test machine may need more than 250 ms to load.
  const pool = new CodecPool({ workers: 2, limits: { loadTimeoutMs: 5_000 } });
  afterAll(() => pool.dispose());

  it('decodes and encodes in a worker thread as the sandbox does', async () => {
    expect(await pool.decodeUplink(GOOD, { bytes: [7, 1], fPort: 1, recvTime })).toEqual({
      data: { first: 7 },
      warnings: [],
      errors: [],
    });
    const encoded = await pool.encodeDownlink(GOOD, { data: { level: 9 } });
    expect({ ...encoded, bytes: [...encoded.bytes] }).toEqual({
      bytes: [9],
      fPort: 5,
      warnings: [],
      errors: [],
    });
    expect(await pool.load(GOOD)).toEqual({ ok: true, functions: ['decodeUplink', 'encodeDownlink'] });
  });

  it("gives a looping codec one thread and its time limit; another company's codec goes on", async () => {
    // Both threads loaded the good codec (calls of two companies run on two threads).
    await Promise.all([
      pool.decodeUplink(GOOD, { bytes: [1], recvTime }),
      pool.decodeUplink({ ...GOOD, companyId: 3 }, { bytes: [1], recvTime }),
    ]);
    const order: string[] = [];
    const loops = [1, 2, 3, 4].map((i) =>
      pool.decodeUplink(LOOP, { bytes: [i], recvTime }).then((result) => {
        order.push(`loop ${i}`);
        return result;
      }),
    );
    const good = pool.decodeUplink(GOOD, { bytes: [5], recvTime }).then((result) => {
      order.push('good');
      return result;
    });
    const results = await Promise.all(loops);
    expect((await good).data).toEqual({ first: 5 });
    for (const result of results) {
      expect(result.errors).toEqual(['codec exceeded its time limit of 50 ms']);
      expect(result.overBudget).toBe(true);
    }
    // The looping company's calls ran one after another on one thread, beside the good one.
    expect(order.indexOf('good')).toBeLessThan(order.indexOf('loop 4'));
  });

  it('a codec the sandbox cannot stop in time costs its thread, not the pool', async () => {
    const slow = new CodecPool({ workers: 1, limits: { timeoutMs: 20_000 }, deadlineMs: 400 });
    try {
      expect(await slow.load(GOOD)).toMatchObject({ ok: true });
      const started = performance.now();
      const result = await slow.decodeUplink(LOOP, { bytes: [1], recvTime });
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(result).toMatchObject({
        errors: ['codec exceeded its time limit of 20000 ms (stopped after 400 ms)'],
        overBudget: true,
      });
      expect(slow.terminated).toBe(1);
      // A new thread takes the next call.
      expect((await slow.decodeUplink(GOOD, { bytes: [3], recvTime })).data).toEqual({ first: 3 });
    } finally {
      await slow.dispose();
    }
  });

  it('sends a script to a thread once, and again after an edit', async () => {
    const edited = { ...GOOD, codecId: 'edited' };
    expect((await pool.decodeUplink(edited, { bytes: [1], recvTime })).data).toEqual({ first: 1 });
    const changed = {
      ...edited,
      script: 'function decodeUplink(input) { return { data: { second: input.bytes[1] } }; }',
    };
    expect((await pool.decodeUplink(changed, { bytes: [1, 2], recvTime })).data).toEqual({ second: 2 });
    pool.evict(edited.companyId, edited.codecId);
    expect((await pool.decodeUplink(changed, { bytes: [1, 4], recvTime })).data).toEqual({ second: 4 });
  });
});
