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
