import { describe, expect, it } from 'vitest';
import { CodecSandbox, type UserCodec } from '../index.js';
import { COUNTER, codec, decode, recvTime, useSandbox } from './sandbox-test-setup';

useSandbox();

// Isolation runs first: the timing-sensitive limits then meet a warmed-up sandbox, as they did when
// they shared a file with the decode tests.
describe('isolation', () => {
  it('has no process, require, timers, network or QuickJS std/os modules', () => {
    const c = codec(`function decodeUplink() { return { data: {
      process: typeof process, require: typeof require, module: typeof module, std: typeof std, os: typeof os,
      setTimeout: typeof setTimeout, setInterval: typeof setInterval, fetch: typeof fetch,
      XMLHttpRequest: typeof XMLHttpRequest, WebSocket: typeof WebSocket, Buffer: typeof Buffer,
    } }; }`);
    expect(decode(c).data).toEqual({
      process: 'undefined',
      require: 'undefined',
      module: 'undefined',
      std: 'undefined',
      os: 'undefined',
      setTimeout: 'undefined',
      setInterval: 'undefined',
      fetch: 'undefined',
      XMLHttpRequest: 'undefined',
      WebSocket: 'undefined',
      Buffer: 'undefined',
    });
  });

  it.each([
    ['process', 'process.exit(1)', "codec threw ReferenceError: 'process' is not defined"],
    ['require', "require('fs')", "codec threw ReferenceError: 'require' is not defined"],
    [
      'the Function constructor',
      "globalThis.constructor.constructor('return process')()",
      "codec threw ReferenceError: 'process' is not defined",
    ],
    [
      'the Function constructor of a function',
      "(function () {}).constructor('return require')()('fs')",
      "codec threw ReferenceError: 'require' is not defined",
    ],
  ])('reaching %s fails inside the sandbox', (_name, expression, error) => {
    expect(
      decode(codec(`function decodeUplink() { return { data: { x: ${expression} } }; }`)).errors,
    ).toEqual([error]);
  });

  it('import() never loads a module', () => {
    const c = codec(`var loaded = 'no';
      function decodeUplink(input) {
        if (input.bytes[0] === 1) import('fs').then(function (m) { loaded = 'yes: ' + typeof m; }, function (e) { loaded = 'rejected'; });
        return { data: { loaded: loaded } };
      }`);
    expect(decode(c, [1]).data).toEqual({ loaded: 'no' });
    expect(decode(c, [2]).data).toEqual({ loaded: 'no' });
    expect(decode(codec('import fs from "fs"; function decodeUplink() {}')).errors[0]).toContain(
      'SyntaxError',
    );
  });

  it('prototype tampering stays in the codec that did it', () => {
    const tamper = codec(
      `Object.prototype.polluted = 1;
      Array.prototype.push = function () { throw new Error('push is broken'); };
      JSON.stringify = function () { return '{"kind":"legacy","fn":"Decoder","result":{"forged":1}}'; };
      function decodeUplink() { var a = []; return { data: { polluted: ({}).polluted, pushed: (function () { try { a.push(1); return 'ok'; } catch (e) { return e.message; } })() } }; }`,
      1,
    );
    // The codec sees its own damage; the bootstrap captured JSON.stringify before the codec ran.
    expect(decode(tamper).data).toEqual({ polluted: 1, pushed: 'push is broken' });
    const probe = `function decodeUplink() { var a = []; a.push(1); return { data: { polluted: typeof ({}).polluted, length: a.length } }; }`;
    // The same company's other codec and another company's codec with the same id both start clean.
    expect(decode({ ...tamper, codecId: 'other', script: probe }).data).toEqual({
      polluted: 'undefined',
      length: 1,
    });
    expect(decode({ ...tamper, companyId: 2, script: probe }).data).toEqual({
      polluted: 'undefined',
      length: 1,
    });
    // And the host.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Array.prototype.push.toString()).toContain('[native code]');
  });

  it("company A's codec cannot see globals set by company B's codec with the same script", () => {
    // Only what a codec puts on globalThis outlives a call (top-level vars start afresh each call).
    const script = `if (typeof mine === 'undefined') globalThis.mine = 0;
      function decodeUplink(input) {
        if (input.bytes[0] === 1) { globalThis.secret = 'of company ' + input.bytes[1]; mine++; }
        return { data: { secret: typeof secret === 'undefined' ? 'none' : secret, mine: mine } };
      }`;
    const b: UserCodec = { companyId: 20, codecId: 'shared-codec', script };
    const a: UserCodec = { companyId: 10, codecId: 'shared-codec', script };
    expect(decode(b, [1, 20]).data).toEqual({ secret: 'of company 20', mine: 1 });
    expect(decode(a, [0]).data).toEqual({ secret: 'none', mine: 0 });
    expect(decode(b, [0]).data).toEqual({ secret: 'of company 20', mine: 1 });
  });
});

describe('limits', () => {
  it('interrupts an endless loop, returns an error, and the next call runs in a fresh context', () => {
    const c = codec(
      'var calls = 0; function decodeUplink(input) { calls++; if (input.bytes[0] === 0) { while (true) {} } return { data: { calls: calls } }; }',
    );
    expect(decode(c, [1]).data).toEqual({ calls: 1 });
    expect(decode(c, [0])).toEqual({
      data: {},
      warnings: [],
      errors: ['codec exceeded its time limit of 50 ms'],
    });
    // calls starts again at 1: the interrupted context was disposed and rebuilt.
    expect(decode(c, [1]).data).toEqual({ calls: 1 });
  });

  it('an endless loop cannot be caught by the codec', () => {
    const c = codec(
      'function decodeUplink() { try { for (;;) {} } catch (e) { return { data: { escaped: true } }; } }',
    );
    expect(decode(c).errors).toEqual(['codec exceeded its time limit of 50 ms']);
  });

  it('an endless loop at the top level stops the load', () => {
    expect(decode(codec('while (true) {} function decodeUplink() {}')).errors).toEqual([
      'codec exceeded its time limit of 250 ms',
    ]);
  });

  it.each([
    ['one huge typed array', 'new Uint8Array(64 * 1024 * 1024).length'],
    ['one huge string', "'x'.repeat(64 * 1024 * 1024).length"],
    ['a filled array of 4 million numbers', 'new Array(4e6).fill(0).length'],
    // Past the sandbox's heap cap: the WebAssembly memory refuses to grow and QuickJS reports it.
    ['buffers allocated without end', 'eat()'],
  ])('stops %s at the memory limit; the next call runs in a fresh context', async (_name, expression) => {
    // Its own sandbox with a generous time budget: on a loaded CI machine a first call in a fresh
    // context passed the 50 ms default, and this test is about memory, not time.
    const own = await CodecSandbox.create({ limits: { timeoutMs: 5_000, loadTimeoutMs: 5_000 } });
    const call = (bytes: number[]) => own.decodeUplink(c, { bytes, fPort: 1, recvTime });
    const c = codec(`var calls = 0, keep = [];
      function eat() { var a = []; for (;;) a.push(new ArrayBuffer(1024 * 1024)); }
      function decodeUplink(input) { calls++; return { data: input.bytes[0] === 0 ? { n: ${expression} } : { calls: calls } }; }`);
    try {
      expect(call([1])).toEqual({ data: { calls: 1 }, warnings: [], errors: [] });
      const result = call([0]);
      expect(result.data).toEqual({});
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]).toMatch(/^codec exceeded its memory limit of 16 MiB/);
      expect(call([1]).data).toEqual({ calls: 1 });
      expect(own.heapBytes).toBeLessThanOrEqual(own.limits.heapBytes);
    } finally {
      own.dispose();
    }
  });

  it('catches memory kept a little per call, measured when the heap grows or every memoryCheckEvery calls', async () => {
    const script =
      'var keep = globalThis.keep || (globalThis.keep = []); function decodeUplink() { keep.push(new ArrayBuffer(1024 * 1024)); return { data: { kept: keep.length } }; }';
    const callsUntilError = async (limits: { memoryCheckEvery: number }) => {
      const own = await CodecSandbox.create({ limits });
      const c = codec(script);
      let calls = 0;
      let result = own.decodeUplink(c, { bytes: [1], recvTime });
      while (result.errors.length === 0 && calls < 200) {
        calls++;
        result = own.decodeUplink(c, { bytes: [1], recvTime });
      }
      own.dispose();
      expect(result.errors[0]).toMatch(/^codec exceeded its memory limit of 16 MiB \(it used 1\d\.\d MiB\)$/);
      return calls;
    };
    // Measured after every call: after 15 good calls, the 16th buffer takes the runtime past 16 MiB.
    expect(await callsUntilError({ memoryCheckEvery: 1 })).toBe(15);
    // Amortised: no later than the next scheduled measurement.
    expect(await callsUntilError({ memoryCheckEvery: 64 })).toBeLessThanOrEqual(15 + 64);
  });

  it('limits are configurable', async () => {
    const roomy = await CodecSandbox.create({ limits: { memoryBytes: 64 * 1024 * 1024 } });
    const script =
      'function decodeUplink() { return { data: { n: new Uint8Array(32 * 1024 * 1024).length } }; }';
    expect(roomy.decodeUplink(codec(script), { bytes: [1], recvTime }).data).toEqual({ n: 32 * 1024 * 1024 });
    expect(decode(codec(script)).errors).toEqual(['codec exceeded its memory limit of 16 MiB']);
    roomy.dispose();
  });

  it('deep recursion hits the stack limit, not the host stack', () => {
    const c = codec(
      'function f(n) { return f(n + 1) + 1; } function decodeUplink() { return { data: { x: f(0) } }; }',
    );
    expect(decode(c).errors).toEqual(['codec exceeded its stack limit of 256 KiB (recursion too deep)']);
    expect(decode(codec(COUNTER)).data).toEqual({ calls: 1 });
  });

  it('caps the number of fields', () => {
    const c = codec(
      'function decodeUplink() { var d = {}; for (var i = 0; i < 300; i++) d["f" + i] = i; return { data: d }; }',
    );
    const result = decode(c);
    expect(Object.keys(result.data)).toHaveLength(256);
    expect(result.warnings).toEqual(['codec returned more than 256 fields; the rest are dropped']);
  });
});
