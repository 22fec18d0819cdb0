import { describe, expect, it } from 'vitest';
import { type Condition, EQ_TOLERANCE, holdsLevel, isCrossing, nearlyEqual } from './evaluate-condition';

const threshold = (operator: Condition['operator'], value: number): Condition => ({ operator, value });
const range = (operator: 'in' | 'out'): Condition => ({ operator, rangeMin: 10, rangeMax: 20 });

describe('holdsLevel', () => {
  it.each([
    // operator, value, expected
    [threshold('lte', 30), 29.9, true],
    [threshold('lte', 30), 30, true],
    [threshold('lte', 30), 30.1, false],
    [threshold('gte', 30), 29.9, false],
    [threshold('gte', 30), 30, true],
    [threshold('gte', 30), 30.1, true],
    [threshold('eq', 21.5), 21.5, true],
    // 215 * 0.1 is 21.500000000000004: equal within the tolerance.
    [threshold('eq', 21.5), 215 * 0.1, true],
    [threshold('eq', 21.5), 21.51, false],
    [threshold('eq', 1), 1, true],
    [threshold('eq', 0), 0, true],
    [range('in'), 9.99, false],
    [range('in'), 10, true],
    [range('in'), 15, true],
    [range('in'), 20, true],
    [range('in'), 20.01, false],
    [range('out'), 9.99, true],
    [range('out'), 10, false],
    [range('out'), 20, false],
    [range('out'), 20.01, true],
  ])('%o with %d -> %s', (condition, value, expected) => {
    expect(holdsLevel(condition, value)).toBe(expected);
  });
});

describe('isCrossing (rie / fae)', () => {
  it.each([
    // operator, previous, value, expected
    ['rie', undefined, 35, false], // first value ever: no crossing
    ['rie', 29, 30, true], // from below to exactly the threshold
    ['rie', 29, 31, true],
    ['rie', 30, 31, false], // previous exactly at the threshold is not below
    ['rie', 31, 35, false], // already above
    ['rie', 29, 29.5, false], // still below
    ['rie', 31, 29, false], // falling
    ['fae', undefined, 5, false],
    ['fae', 11, 10, true], // from above to exactly the threshold
    ['fae', 11, 9, true],
    ['fae', 10, 9, false], // previous exactly at the threshold is not above
    ['fae', 9, 8, false],
    ['fae', 9, 11, false],
    ['gte', 29, 31, false], // level operators have no crossing of their own
  ] as const)('%s %s -> %s: %s', (operator, previous, value, expected) => {
    const limit = operator === 'fae' ? 10 : 30;
    expect(isCrossing({ operator, value: limit }, previous, value)).toBe(expected);
  });
});

describe('nearlyEqual', () => {
  it('is relative to the size of the numbers', () => {
    expect(EQ_TOLERANCE).toBe(1e-9);
    expect(nearlyEqual(1e6, 1e6 + 1e-4)).toBe(true);
    expect(nearlyEqual(1e6, 1e6 + 1e-2)).toBe(false);
    expect(nearlyEqual(0, 1e-10)).toBe(true);
    expect(nearlyEqual(0, 1e-8)).toBe(false);
  });
});
