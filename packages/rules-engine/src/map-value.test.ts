import { describe, expect, it } from 'vitest';
import { mapValue } from './map-value';

describe('mapValue', () => {
  const door = { '0': 'closed', '1': 'open' };
  const climate = { '..0': 'frost', '0..10': 'cold', '10..25': 'mild', '25..': 'hot', '25': 'exactly 25' };
  it.each([
    [door, 0, 'closed'],
    [door, 1, 'open'],
    [door, 2, 2], // unmapped values stay numbers
    [{ true: 'on', false: 'off' }, 1, 'on'],
    [{ true: 'on', false: 'off' }, 0, 'off'],
    [{ '2.5': 'half' }, 2.5, 'half'],
    [climate, -0.1, 'frost'],
    [climate, 0, 'cold'], // min inclusive, max exclusive
    [climate, 9.99, 'cold'],
    [climate, 10, 'mild'],
    [climate, 25, 'exactly 25'], // exact keys win over ranges
    [climate, 30, 'hot'],
    [{ '0..10': 'first', '5..15': 'second' }, 7, 'first'], // first range in order wins
    [{ '1..2': 3 }, 1.5, 3],
    [null, 4, 4],
    [{}, 4, 4],
  ])('%j maps %d to %j', (mapping, value, expected) => {
    expect(mapValue(value, mapping)).toBe(expected);
  });
});

describe('mapValue on hostile keys', () => {
  // The former range pattern backtracked: a key of dots that is no range took seconds per call (ReDoS).
  it.each([[`${'.'.repeat(49_999)}x`], [`1${'.'.repeat(49_998)}x`], ['.'.repeat(50_000)]])(
    'maps against a 50,000-character key in linear time',
    (key) => {
      const started = performance.now();
      expect(mapValue(1, { [key]: 'hostile', '0..2': 'range' })).toBe('range');
      expect(performance.now() - started).toBeLessThan(50);
    },
  );

  it.each([
    [{ ' 0 .. 10 ': 'spaced' }, 5, 'spaced'],
    [{ '.5..1': 'leading dot' }, 0.75, 'leading dot'],
    [{ '-10..-5': 'negative' }, -7, 'negative'],
    [{ '1e3..2e3': 'exponent' }, 1500, 'exponent'],
    [{ '..': 'everything' }, 42, 'everything'],
    [{ '1..2..3': 'two separators' }, 1.5, 1.5],
    [{ '1.2.3..5': 'not a number' }, 4, 4],
    [{ '-..5': 'lone minus' }, 4, 4],
  ])('%j maps %d to %j', (mapping, value, expected) => {
    expect(mapValue(value, mapping)).toBe(expected);
  });
});
