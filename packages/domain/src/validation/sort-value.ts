import { SORT_VALUE_MAX, SORT_VALUE_MIN } from '../constants/session';
import { fail, type ValidationError } from './types';

/** Metadata sort value: a whole number from 1 to 99999 (spec sections 3, 5, 9). */
export function validateSortValue(value: unknown): ValidationError | null {
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  return typeof number === 'number' &&
    Number.isInteger(number) &&
    number >= SORT_VALUE_MIN &&
    number <= SORT_VALUE_MAX
    ? null
    : fail('error.sort-value', { min: SORT_VALUE_MIN, max: SORT_VALUE_MAX });
}
