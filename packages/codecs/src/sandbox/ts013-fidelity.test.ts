import { describe, expect, it } from 'vitest';
import { codec, decode, recvTime, sandbox, useSandbox } from './sandbox-test-setup';

useSandbox();

// Codecs written the way device makers write them, against what TS013-1.0.0 and plain Node promise.
describe('TS013 fidelity', () => {
  it('starts a codec top-level state afresh on every call (a global read pointer does not drift)', () => {
    const c = codec(`var pointer = 0;
      function next(bytes) { return bytes[pointer++]; }
      function decodeUplink(input) { return { data: { first: next(input.bytes), second: next(input.bytes), pointer: pointer } }; }`);
    for (let i = 0; i < 3; i++)
      expect(decode(c, [10, 20, 30]).data).toEqual({ first: 10, second: 20, pointer: 2 });
  });

  it('hands encodeDownlink the input as given, extra fields included', () => {
    const c = codec(`function encodeDownlink(input) {
      if (input.command === 'set_interval') return { bytes: [0x01, input.data.minutes], fPort: input.fPort };
      return { errors: ['unknown command ' + input.command] };
    }`);
    expect(
      sandbox.encodeDownlink(c, { command: 'set_interval', data: { minutes: 15 }, fPort: 9 }),
    ).toMatchObject({ bytes: Uint8Array.from([1, 15]), fPort: 9, errors: [] });
    expect(sandbox.encodeDownlink(c, { command: 'reboot', data: {} }).errors).toEqual([
      'unknown command reboot',
    ]);
  });

  it('runs decodeDownlink, and says so when a codec has none', () => {
    const c = codec(`function decodeDownlink(input) {
      return { data: { interval: input.bytes[1], port: input.fPort }, warnings: [], errors: [] };
    }`);
    expect(sandbox.decodeDownlink(c, { bytes: [1, 15], fPort: 9 })).toEqual({
      data: { interval: 15, port: 9 },
      warnings: [],
      errors: [],
    });
    expect(sandbox.decodeDownlink(codec('function decodeUplink() {}'), { bytes: [1] }).errors).toEqual([
      'codec defines no decodeDownlink',
    ]);
  });

  it('keeps nested data as the codec shaped it when asked, and stores it flattened', () => {
    const c = codec(
      'function decodeUplink() { return { data: { alarm: { level: 2 }, history: [{ t: 21.5 }] } }; }',
    );
    const result = sandbox.decodeUplink(c, { bytes: [1], recvTime }, { keepShape: true });
    expect(result.data).toEqual({ 'alarm.level': 2, 'history.0.t': 21.5 });
    expect(result.shaped).toEqual({ alarm: { level: 2 }, history: [{ t: 21.5 }] });
  });
});

describe('loading a codec', () => {
  it('tells which entry points a codec defines, however they are declared', () => {
    const loaded = sandbox.load(
      codec(`function decodeUplink() {}
        const encodeDownlink = function () {};
        let decodeDownlink = () => ({});
        var helper = function () {};`),
    );
    expect(loaded).toEqual({ ok: true, functions: ['decodeUplink', 'encodeDownlink', 'decodeDownlink'] });
  });

  it('refuses a script that does not parse, with the line of the error', () => {
    const loaded = sandbox.load(codec('function decodeUplink(input) {\n  return {\n    data: 1 +\n  };\n}'));
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.error).toMatch(/^loading the codec failed: SyntaxError: /);
    expect(loaded.line).toBe(4);
  });

  it('refuses a script whose top level throws, with its line', () => {
    const loaded = sandbox.load(
      codec('// a vendor codec\nvar table = lookup();\nfunction decodeUplink() {}'),
    );
    expect(loaded).toEqual({
      ok: false,
      error: "loading the codec failed: ReferenceError: 'lookup' is not defined",
      line: 2,
    });
  });

  it('gives the line a decoder threw at', () => {
    const result = decode(
      codec('function decodeUplink(input) {\n  var a = input.bytes[0];\n  throw new Error("frame " + a);\n}'),
    );
    expect(result).toMatchObject({ errors: ['codec threw Error: frame 1'], line: 3 });
  });

  it('stops a script that loops at its top level, with the load budget', () => {
    expect(sandbox.load(codec('for (;;) {}\nfunction decodeUplink() {}'))).toEqual({
      ok: false,
      error: 'codec exceeded its time limit of 250 ms',
    });
  });
});
