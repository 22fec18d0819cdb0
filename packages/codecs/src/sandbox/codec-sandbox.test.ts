import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodecSandbox, type UserCodec } from '../index.js';

let sandbox: CodecSandbox;
beforeAll(async () => {
  sandbox = await CodecSandbox.create();
});
afterAll(() => sandbox.dispose());

const recvTime = new Date('2026-03-01T12:00:00.000Z');
let nextId = 0;
/** A codec with a fresh id, so tests do not share contexts unless they mean to. */
const codec = (script: string, companyId = 1): UserCodec => ({ companyId, codecId: `c${++nextId}`, script });
const decode = (c: UserCodec, bytes: number[] = [1, 2, 3], fPort = 1) =>
  sandbox.decodeUplink(c, { bytes, fPort, recvTime });

// A global counter shows whether a call ran in the same context as the one before.
const COUNTER = 'var calls = 0; function decodeUplink() { calls++; return { data: { calls: calls } }; }';

describe('TS013 decodeUplink and the legacy entry points', () => {
  it('builds the TS013 input inside the sandbox: plain array bytes, fPort, recvTime as a Date', () => {
    const c = codec(`function decodeUplink(input) {
      return { data: {
        isArray: Array.isArray(input.bytes) && input.bytes instanceof Array,
        bytes: input.bytes.join(','),
        fPort: input.fPort,
        recvTime: input.recvTime instanceof Date ? input.recvTime.toISOString() : 'not a date',
      }, warnings: ['low battery'] };
    }`);
    expect(sandbox.decodeUplink(c, { bytes: Uint8Array.from([0, 127, 255]), fPort: 85, recvTime })).toEqual({
      data: { isArray: true, bytes: '0,127,255', fPort: 85, recvTime: '2026-03-01T12:00:00.000Z' },
      warnings: ['low battery'],
      errors: [],
    });
  });

  it.each([
    [
      'TTN v2 Decoder(bytes, port)',
      'function Decoder(bytes, port) { return { first: bytes[0], port: port }; }',
    ],
    [
      'ChirpStack v3 Decode(fPort, bytes, variables)',
      'function Decode(fPort, bytes, variables) { return { first: bytes[0], port: fPort, unit: variables.unit }; }',
    ],
    [
      'decode(fPort, bytes, variables) as a const arrow function',
      'const decode = (fPort, bytes, variables) => ({ first: bytes[0], port: fPort, unit: variables.unit });',
    ],
  ])('%s', (_name, script) => {
    const result = sandbox.decodeUplink(codec(script), {
      bytes: [7, 8],
      fPort: 3,
      recvTime,
      variables: { unit: 'cm' },
    });
    expect(result.errors).toEqual([]);
    expect(result.data).toMatchObject({ first: 7, port: 3 });
    if ('unit' in result.data) expect(result.data.unit).toBe('cm');
  });

  it('hands a codec only integers 0..255, whatever array the caller passed', () => {
    const c = codec('function decodeUplink(input) { return { data: { bytes: input.bytes.join(",") } }; }');
    expect(sandbox.decodeUplink(c, { bytes: [256, -1, 3.7, 42], recvTime }).data).toEqual({
      bytes: '0,255,3,42',
    });
  });

  it('prefers decodeUplink when a codec defines every entry point', () => {
    const c = codec(`function decodeUplink() { return { data: { via: 'decodeUplink' } }; }
      function Decoder() { return { via: 'Decoder' }; }
      function Decode() { return { via: 'Decode' }; }`);
    expect(decode(c).data).toEqual({ via: 'decodeUplink' });
  });

  it('passes codec errors through without data, and flattens nested data', () => {
    expect(
      decode(
        codec(
          "function decodeUplink() { return { data: { x: 1 }, errors: ['unknown frame type 0x09'], warnings: [] }; }",
        ),
      ),
    ).toEqual({
      data: {},
      warnings: [],
      errors: ['unknown frame type 0x09'],
    });
    expect(
      decode(
        codec(
          'function decodeUplink() { return { data: { alarm: { level: 2, on: true }, history: [{ t: 21.5 }, { t: 22 }], gone: null } }; }',
        ),
      ),
    ).toEqual({
      data: { 'alarm.level': 2, 'alarm.on': true, 'history.0.t': 21.5, 'history.1.t': 22 },
      warnings: ['gone: no value, dropped'],
      errors: [],
    });
  });

  it.each([
    ['no entry point', 'var x = 1;', 'codec defines none of decodeUplink, Decoder, Decode or decode'],
    [
      'a throwing codec',
      "function decodeUplink() { throw new RangeError('frame too short'); }",
      'codec threw RangeError: frame too short',
    ],
    ['a thrown string', "function Decoder() { throw 'bad'; }", 'codec threw bad'],
    ['a syntax error', 'function decodeUplink( {', 'loading the codec failed: SyntaxError'],
    [
      'a result that is not an object',
      'function decodeUplink() { return 42; }',
      'decodeUplink returned number, not an object',
    ],
    [
      'data that is not an object',
      'function decodeUplink() { return { data: [1] }; }',
      'decodeUplink result: data is not an object',
    ],
    [
      'an async codec (its promise is never run)',
      'async function decodeUplink() { return { data: { x: 1 } }; }',
      'decodeUplink result: data is not an object',
    ],
    ['a cyclic result', 'function Decoder() { var a = {}; a.self = a; return a; }', 'result is not JSON'],
    ['legacy returning nothing', 'function Decoder() {}', 'Decoder returned nothing, not an object'],
  ])('%s gives an error, never a host exception', (_name, script, error) => {
    const result = decode(codec(script));
    expect(result.data).toEqual({});
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toContain(error);
  });

  it('keeps the context of a codec that merely threw', () => {
    const c = codec(
      'var calls = 0; function decodeUplink(input) { calls++; if (input.bytes[0] === 0) throw new Error("zero"); return { data: { calls: calls } }; }',
    );
    expect(decode(c, [1]).data).toEqual({ calls: 1 });
    expect(decode(c, [0]).errors).toEqual(['codec threw Error: zero']);
    expect(decode(c, [1]).data).toEqual({ calls: 3 });
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
  ])('stops %s at the memory limit; the next call runs in a fresh context', (_name, expression) => {
    const c = codec(`var calls = 0, keep = [];
      function eat() { var a = []; for (;;) a.push(new ArrayBuffer(1024 * 1024)); }
      function decodeUplink(input) { calls++; return { data: input.bytes[0] === 0 ? { n: ${expression} } : { calls: calls } }; }`);
    expect(decode(c, [1]).data).toEqual({ calls: 1 });
    const result = decode(c, [0]);
    expect(result.data).toEqual({});
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatch(/^codec exceeded its memory limit of 16 MiB/);
    expect(decode(c, [1]).data).toEqual({ calls: 1 });
    expect(sandbox.heapBytes).toBeLessThanOrEqual(sandbox.limits.heapBytes);
  });

  it('catches memory kept a little per call, measured when the heap grows or every memoryCheckEvery calls', async () => {
    const script =
      'var keep = []; function decodeUplink() { keep.push(new ArrayBuffer(1024 * 1024)); return { data: { kept: keep.length } }; }';
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
    const script = `var mine = 0;
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

describe('context cache', () => {
  it('reuses a context per codec, rebuilds it when the script changes, and evicts on request', () => {
    const c = codec(COUNTER, 5);
    expect(decode(c).data).toEqual({ calls: 1 });
    expect(decode(c).data).toEqual({ calls: 2 });
    const edited = { ...c, script: `${COUNTER} // edited` };
    expect(decode(edited).data).toEqual({ calls: 1 });
    expect(decode(edited).data).toEqual({ calls: 2 });
    sandbox.evict(5, c.codecId);
    expect(decode(edited).data).toEqual({ calls: 1 });
  });

  it('keeps at most maxContexts, dropping the least recently used', async () => {
    const small = await CodecSandbox.create({ maxContexts: 2 });
    const run = (c: UserCodec) => small.decodeUplink(c, { bytes: [1], recvTime }).data;
    const [x, y, z] = [codec(COUNTER), codec(COUNTER), codec(COUNTER)] as [UserCodec, UserCodec, UserCodec];
    run(x);
    run(y);
    expect(run(x)).toEqual({ calls: 2 }); // x is now the most recently used
    run(z); // evicts y
    expect(small.size).toBe(2);
    expect(run(x)).toEqual({ calls: 3 });
    expect(run(y)).toEqual({ calls: 1 });
    small.dispose();
    expect(small.size).toBe(0);
  });
});

describe('encodeDownlink', () => {
  it.each([
    [
      'TS013 encodeDownlink',
      'function encodeDownlink(input) { return { bytes: [0xff, input.data.level], fPort: 85, warnings: ["w"] }; }',
      [0xff, 3],
      85,
      ['w'],
    ],
    [
      'a typed array result',
      'function encodeDownlink(input) { return { bytes: new Uint8Array([1, input.data.level]) }; }',
      [1, 3],
      7,
      [],
    ],
    [
      'TTN v2 Encoder(object, port)',
      'function Encoder(object, port) { return [object.level, port]; }',
      [3, 7],
      7,
      [],
    ],
    [
      'ChirpStack v3 Encode(fPort, obj, variables)',
      'function Encode(fPort, obj, variables) { return [obj.level, fPort, variables.k.length]; }',
      [3, 7, 2],
      7,
      [],
    ],
  ])('%s', (_name, script, bytes, fPort, warnings) => {
    expect(
      sandbox.encodeDownlink(codec(script), { data: { level: 3 }, fPort: 7, variables: { k: 'ab' } }),
    ).toEqual({
      bytes: Uint8Array.from(bytes),
      fPort,
      warnings,
      errors: [],
    });
  });

  it.each([
    [
      'bytes out of range',
      'function encodeDownlink() { return { bytes: [1, 256] }; }',
      'encodeDownlink result: bytes[1] is 256, not 0..255',
    ],
    ['bytes not an array', 'function Encoder() { return "0102"; }', 'Encoder result: bytes is not an array'],
    [
      'an invalid port',
      'function encodeDownlink() { return { bytes: [1], fPort: 0 }; }',
      'encodeDownlink result: fPort 0 is not an application port 1..223',
    ],
    [
      'codec errors',
      'function encodeDownlink() { return { errors: ["level must be 1..5"] }; }',
      'level must be 1..5',
    ],
    [
      'no encoder',
      'function decodeUplink() {}',
      'codec defines none of encodeDownlink, Encoder, Encode or encode',
    ],
    [
      'an endless loop',
      'function encodeDownlink() { for (;;) {} }',
      'codec exceeded its time limit of 50 ms',
    ],
  ])('%s gives an error', (_name, script, error) => {
    const result = sandbox.encodeDownlink(codec(script), { data: {} });
    expect(result.errors).toEqual([error]);
    expect(result.bytes).toEqual(new Uint8Array());
  });
});
