import { describe, expect, it } from 'vitest';
import type { UplinkEnvelope } from '../envelope.js';
import { GroupCommit } from './storage-writer.js';

const envelopes = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ messageId: `${tag}${i}` }) as unknown as UplinkEnvelope);

describe('storage writer group commit', () => {
  it('merges the batches that wait while a write runs into one write, up to maxRows, in arrival order', async () => {
    const writes: string[][] = [];
    const releases: (() => void)[] = [];
    const commit = new GroupCommit(
      (batch) => {
        writes.push(batch.map((e) => e.messageId));
        return new Promise<number>((resolve) => releases.push(() => resolve(batch.length)));
      },
      5,
      1,
    );
    const first = commit.add(envelopes('a', 2));
    const waiting = [
      commit.add(envelopes('b', 2)),
      commit.add(envelopes('c', 2)),
      commit.add(envelopes('d', 1)),
    ];
    expect(writes).toEqual([['a0', 'a1']]); // one write at a time: the rest waits
    releases.shift()!();
    expect(await first).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    // b and c fill 4 of 5 rows; d (1 row) still fits.
    expect(writes[1]).toEqual(['b0', 'b1', 'c0', 'c1', 'd0']);
    releases.shift()!();
    expect(await Promise.all(waiting)).toEqual([5, 5, 5]);
  });

  it('fails every batch of a failed write, so each partition retries its own', async () => {
    let calls = 0;
    const commit = new GroupCommit(
      async () => {
        calls++;
        throw new Error('database down');
      },
      100,
      1,
    );
    const results = await Promise.allSettled([commit.add(envelopes('a', 1)), commit.add(envelopes('b', 1))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(2); // a alone (the write starts at once), then b
  });

  it('runs at most `concurrency` writes at once', async () => {
    let running = 0;
    let most = 0;
    const commit = new GroupCommit(
      async (batch) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return batch.length;
      },
      1,
      2,
    );
    await Promise.all(Array.from({ length: 10 }, (_, i) => commit.add(envelopes(`x${i}`, 1))));
    expect(most).toBe(2);
  });
});
