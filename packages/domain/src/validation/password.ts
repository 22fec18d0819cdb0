import { MIN_PASSWORD_LENGTH } from '../constants/session';
import { textLength } from './length';
import { fail, type ValidationError } from './types';

/** The special characters a password must contain one of (spec section 5). */
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*(),.?":{}|<>';

const CHECKS = [
  ['error.password-uppercase', (value: string) => /\p{Lu}/u.test(value)],
  ['error.password-lowercase', (value: string) => /\p{Ll}/u.test(value)],
  ['error.password-number', (value: string) => /\d/.test(value)],
  [
    'error.password-special-char',
    (value: string) => [...value].some((c) => PASSWORD_SPECIAL_CHARACTERS.includes(c)),
  ],
] as const;

/**
 * Checks in the spec's order: uppercase, lowercase, digit, special character, then length
 * (10 unless the field's own minlength says otherwise), so the message names the first gap.
 */
export function validatePassword(
  value: unknown,
  minlength: number = MIN_PASSWORD_LENGTH,
): ValidationError | null {
  if (typeof value !== 'string') return fail('error.password');
  for (const [key, check] of CHECKS) if (!check(value)) return fail(key);
  return textLength(value) >= minlength ? null : fail('error.password-minlength', { min: minlength });
}
