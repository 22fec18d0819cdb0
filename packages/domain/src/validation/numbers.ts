import { fail, type ValidationError } from './types';

const INTEGER = /^-?\d+$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Optional minus sign, then digits (spec section 5). */
export function validateInteger(value: unknown): ValidationError | null {
  if (typeof value === 'number') return Number.isInteger(value) ? null : fail('error.integer');
  return typeof value === 'string' && INTEGER.test(value) ? null : fail('error.integer');
}

/**
 * Reads a number the way the forms accept it: a number, or text with a comma or dot as the
 * decimal mark. Returns NaN for anything else, including empty text.
 */
export function parseDecimal(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  const normalised = value.trim().replace(',', '.');
  return DECIMAL.test(normalised) ? Number(normalised) : Number.NaN;
}

/** A number after turning a comma into a dot; unlike most rules, empty fails (spec section 5). */
export function validateDecimal(value: unknown): ValidationError | null {
  return Number.isFinite(parseDecimal(value)) ? null : fail('error.decimal');
}

export function validateMin(value: unknown, min: number): ValidationError | null {
  const number = parseDecimal(value);
  return Number.isFinite(number) && number >= min ? null : fail('error.min', { min });
}

export function validateMax(value: unknown, max: number): ValidationError | null {
  const number = parseDecimal(value);
  return Number.isFinite(number) && number <= max ? null : fail('error.max', { max });
}

export function validateRange(value: unknown, min: number, max: number): ValidationError | null {
  const number = parseDecimal(value);
  return Number.isFinite(number) && number >= min && number <= max ? null : fail('error.range', { min, max });
}
