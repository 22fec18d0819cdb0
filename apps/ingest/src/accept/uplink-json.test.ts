import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, unstorableJson } from './uplink-json.js';

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

describe('unstorableJson', () => {
  it('passes what devices and network servers send', () => {
    expect(unstorableJson({ temperature: 21.5, note: 'Grüße 👋', deep: nested(MAX_JSON_DEPTH - 1) })).toBe(
      undefined,
    );
  });

  it.each([
    ['a lone high surrogate', { a: 'x\ud800' }, /surrogate/],
    ['a lone low surrogate in a key', { '\udc00': 1 }, /key .*surrogate/],
    ['a NUL character deep in an array', { a: [1, ['\u0000']] }, /NUL/],
    ['too deep a nesting', nested(MAX_JSON_DEPTH + 1), /deeper than 32/],
  ])('names %s', (_case, value, reason) => {
    expect(unstorableJson(value)).toMatch(reason);
  });

  it('walks a million levels without overflowing the stack', () => {
    expect(unstorableJson(nested(1_000_000), 2_000_000)).toBeUndefined();
  });
});
