import { afterAll, beforeAll } from 'vitest';
import { CodecSandbox, type UserCodec } from '../index.js';

/** The sandbox of the test file that called useSandbox (a live binding, set before its tests run). */
export let sandbox: CodecSandbox;

/** Creates one sandbox for the calling test file's tests and disposes of it after them. */
export function useSandbox(): void {
  beforeAll(async () => {
    sandbox = await CodecSandbox.create();
    // A file's first call compiles the sandbox's code paths; on a loaded machine that alone can pass the
    // 50 ms limit the tests measure, so one warm-up call runs (and its context goes) before them.
    sandbox.decodeUplink(WARM_UP, { bytes: [], fPort: 1, recvTime });
    sandbox.evict(WARM_UP.companyId, WARM_UP.codecId);
  });
  afterAll(() => sandbox.dispose());
}

const WARM_UP: UserCodec = {
  companyId: 0,
  codecId: 'warm-up',
  script: 'function decodeUplink() { return { data: {} }; }',
};

export const recvTime = new Date('2026-03-01T12:00:00.000Z');
let nextId = 0;
/** A codec with a fresh id, so tests do not share contexts unless they mean to. */
export const codec = (script: string, companyId = 1): UserCodec => ({
  companyId,
  codecId: `c${++nextId}`,
  script,
});
export const decode = (c: UserCodec, bytes: number[] = [1, 2, 3], fPort = 1) =>
  sandbox.decodeUplink(c, { bytes, fPort, recvTime });

// A global counter shows whether a call ran in the same context as the one before.
export const COUNTER =
  'function decodeUplink() { globalThis.calls = (globalThis.calls || 0) + 1; return { data: { calls: globalThis.calls } }; }';
