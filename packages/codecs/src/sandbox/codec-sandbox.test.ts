import { describe, expect, it } from 'vitest';
import { CodecSandbox, type UserCodec } from '../index.js';
import { COUNTER, codec, decode, recvTime, sandbox, useSandbox } from './sandbox-test-setup';

useSandbox();

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
      'function decodeUplink(input) { globalThis.calls = (globalThis.calls || 0) + 1; if (input.bytes[0] === 0) throw new Error("zero"); return { data: { calls: globalThis.calls } }; }',
    );
    expect(decode(c, [1]).data).toEqual({ calls: 1 });
    expect(decode(c, [0]).errors).toEqual(['codec threw Error: zero']);
    expect(decode(c, [1]).data).toEqual({ calls: 3 });
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
