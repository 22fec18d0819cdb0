import { describe, expect, it } from 'vitest';
import { decodePack, encodePack, encodeRecord } from './pack';

describe('pack', () => {
  it('gives back every record: keys read without a parse and keys that need one, headers, bytes', () => {
    const keys = ['42', '', 'a"b', 'back\\slash', 'tab\tkey', 'Grüße ✓', '","c":"json"}', '{"k":"x'];
    const records = keys.map((key, i) => encodeRecord(key, { i, text: `value ${i}` }, undefined));
    records.push(encodeRecord('7', { h: true }, { trace: 'abc' }));
    records.push(encodeRecord('8', new Uint8Array([1, 2, 3]), undefined));
    const out = decodePack('t', 3, 17, 1000, records.length, encodePack(records));
    expect(out.map((r) => r.key)).toEqual([...keys, '7', '8']);
    expect(out.slice(0, keys.length).map((r) => r.value)).toEqual(
      keys.map((_, i) => ({ i, text: `value ${i}` })),
    );
    expect(out[keys.length]!.headers).toEqual({ trace: 'abc' });
    expect(out[keys.length]!.value).toEqual({ h: true });
    expect(out[keys.length + 1]!.value).toEqual(new Uint8Array([1, 2, 3]));
    expect(out.map((r) => r.offset)).toEqual(out.map((_, i) => String(17n * 1_000_000n + BigInt(i))));
    expect(out[0]!.headers).toEqual({});
  });
});
