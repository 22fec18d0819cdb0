import type { ConditionOperator } from '@iot/domain';

/**
 * Relative tolerance of `eq`: |a - b| <= 1e-9 * max(1, |a|, |b|). Decoded sensor values go through
 * float scaling (e.g. 215 * 0.1 = 21.500000000000004), so exact equality would miss them; 1e-9 is far
 * below any sensor's resolution.
 */
export const EQ_TOLERANCE = 1e-9;

export interface Condition {
  operator: ConditionOperator;
  value?: number | null;
  rangeMin?: number | null;
  rangeMax?: number | null;
}

export function nearlyEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= EQ_TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * The level a condition tests on one value. For rie / fae this is the side of the threshold the value
 * is on after the crossing (at or above for rie, at or below for fae); the crossing itself needs the
 * previous value, see `isCrossing`.
 */
export function holdsLevel(condition: Condition, value: number): boolean {
  const threshold = condition.value ?? Number.NaN;
  switch (condition.operator) {
    case 'lte':
    case 'fae':
      return value <= threshold || nearlyEqual(value, threshold);
    case 'gte':
    case 'rie':
      return value >= threshold || nearlyEqual(value, threshold);
    case 'eq':
      return nearlyEqual(value, threshold);
    case 'in':
      return value >= (condition.rangeMin ?? Number.NaN) && value <= (condition.rangeMax ?? Number.NaN);
    case 'out':
      return value < (condition.rangeMin ?? Number.NaN) || value > (condition.rangeMax ?? Number.NaN);
  }
}

/**
 * rie: the previous value was below the threshold and the new one is at or above it. fae: previous
 * above, new at or below. Without a previous value there is no crossing (the first value never fires
 * rie / fae). Other operators have no crossing of their own.
 */
export function isCrossing(condition: Condition, previous: number | undefined, value: number): boolean {
  if (previous === undefined) return false;
  if (condition.operator !== 'rie' && condition.operator !== 'fae') return false;
  return !holdsLevel(condition, previous) && holdsLevel(condition, value);
}

export function describeCondition(field: string, condition: Condition, value: number): string {
  const target =
    condition.operator === 'in' || condition.operator === 'out'
      ? `${condition.rangeMin}..${condition.rangeMax}`
      : `${condition.value}`;
  return `${field} ${condition.operator} ${target} (value ${value})`;
}
