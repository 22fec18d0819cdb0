import { fail, type ValidationError } from './types';

/** Length in characters as a person counts them (code points, so an emoji is one). */
export function textLength(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return [...String(value)].length;
}

export function validateMinLength(value: unknown, min: number): ValidationError | null {
  return textLength(value) >= min ? null : fail('error.minlength', { min });
}

export function validateMaxLength(value: unknown, max: number): ValidationError | null {
  return textLength(value) <= max ? null : fail('error.maxlength', { max });
}
