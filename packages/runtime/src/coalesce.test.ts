import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('coalesce (latency-first batching)', () => {
  it('flushes an idle call at once, alone', async () => {
    const flushes: number[][] = [];
    const double = coalesce<number, number>(async (items) => {
      flushes.push(items);
      return items.map((n) => n * 2);
    });
    expect(await double(21)).toBe(42);
    expect(flushes).toEqual([[21]]);
  });

  it('puts calls made while a flush runs into the next flush, answering each caller its own result', async () => {
    const flushes: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const echo = coalesce<number, string>(async (items) => {
      flushes.push(items);
      if (flushes.length === 1) await gate;
      return items.map((n) => `r${n}`);
    });
    const first = echo(1);
    await tick();
    const rest = [echo(2), echo(3), echo(4)];
    await tick();
    expect(flushes).toEqual([[1]]);
    expect(echo.pending()).toBe(4);
    release();
    expect(await Promise.all([first, ...rest])).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(flushes).toEqual([[1], [2, 3, 4]]);
    expect(echo.pending()).toBe(0);
  });

  it('keeps a flush within maxBatch by weight, but always takes at least one item', async () => {
    const flushes: number[][] = [];
    const sum = coalesce<number, number>(
      async (items) => {
        flushes.push(items);
        return items;
      },
      { maxBatch: 10, weight: (n) => n },
    );
    await Promise.all([sum(4), sum(5), sum(3), sum(20), sum(1)]);
    expect(flushes).toEqual([[4, 5], [3], [20], [1]]);
  });

  it('rejects every caller of a failed flush and goes on with the next', async () => {
    let calls = 0;
    const flaky = coalesce<number, number>(async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('database gone');
      return items;
    });
    const results = await Promise.allSettled([flaky(1), flaky(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await flaky(3)).toBe(3);
  });

  it('runs up to maxInFlight flushes side by side', async () => {
    let running = 0;
    let most = 0;
    const slow = coalesce<number, number>(
      async (items) => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
        return items;
      },
      { maxBatch: 1, maxInFlight: 3 },
    );
    await Promise.all(Array.from({ length: 9 }, (_, i) => slow(i)));
    expect(most).toBe(3);
  });
});
