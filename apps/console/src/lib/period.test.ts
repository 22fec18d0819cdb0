import { describe, expect, it } from 'vitest';
import { canGoNext, fromDateInput, periodBounds, shiftPeriod, toDateInput } from './period';

// Local-time calendar math: the expectations are built with local Date constructors too.
const NOW = new Date(2026, 10, 21, 15, 30).getTime(); // Saturday, 21 November 2026
const local = (...a: [number, number, number]) => new Date(...a).getTime();

describe('chart periods', () => {
  it.each([
    ['24h', NOW - 24 * 3_600_000],
    ['1w', NOW - 7 * 24 * 3_600_000],
    ['1m', new Date(2026, 9, 21, 15, 30).getTime()],
    ['6m', new Date(2026, 4, 21, 15, 30).getTime()],
    ['1y', new Date(2025, 10, 21, 15, 30).getTime()],
  ] as const)('the last %s ends now', (span, from) => {
    expect(periodBounds({ kind: 'last', span }, NOW)).toEqual({ from, to: NOW });
  });

  it.each([
    ['day', local(2026, 10, 21), local(2026, 10, 22)],
    ['week', local(2026, 10, 16), local(2026, 10, 23)], // Monday to Monday
    ['month', local(2026, 10, 1), local(2026, 11, 1)],
    ['year', local(2026, 0, 1), local(2027, 0, 1)],
  ] as const)('the %s tab covers its calendar period', (kind, from, next) => {
    expect(periodBounds({ kind, anchor: NOW }, NOW)).toEqual({ from, to: next - 1 });
    const previous = shiftPeriod({ kind, anchor: NOW }, -1);
    expect(periodBounds(previous, NOW).to).toBe(from - 1);
    expect(canGoNext({ kind, anchor: NOW }, NOW)).toBe(false);
    expect(canGoNext(previous, NOW)).toBe(true);
  });

  it('a range runs from the first day to the end of the last day', () => {
    const from = fromDateInput('2026-11-01') ?? 0;
    const to = fromDateInput('2026-11-03') ?? 0;
    expect(periodBounds({ kind: 'range', from, to }, NOW)).toEqual({
      from: local(2026, 10, 1),
      to: local(2026, 10, 4) - 1,
    });
    expect(toDateInput(from)).toBe('2026-11-01');
    expect(fromDateInput('1.11.2026')).toBeNull();
  });
});
