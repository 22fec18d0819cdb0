import { phone } from 'phone';
import { DEFAULT_PHONE_COUNTRY } from '../constants/session';
import { fail, type ValidationError } from './types';

/** Phone validation result shape of spec section 3; phoneNumber is international with +. */
export type PhoneValidation =
  | { isValid: true; phoneNumber: string; countryIso2: string; countryIso3: string; countryCode: string }
  | { isValid: false; phoneNumber: null; countryIso2: null; countryIso3: null; countryCode: null };

export interface PhoneOptions {
  /** ISO alpha-2 or alpha-3 country; default DE. null means: detect it from a + number. */
  country?: string | null;
  /** Also require the country's mobile prefix (the `mobile` rule). */
  mobile?: boolean;
}

/**
 * Parses and normalises a phone number with the `phone` package, which implements the parsing
 * rules of spec section 5 (non-digits stripped, trunk zeros removed except for Côte d'Ivoire and
 * Congo, Russian 89.. numbers, allowed national lengths, + numbers by calling code, 10 digits as US
 * then Canada).
 */
export function validatePhoneNumber(value: string, options: PhoneOptions = {}): PhoneValidation {
  const country = options.country === undefined ? DEFAULT_PHONE_COUNTRY : options.country;
  const result = phone(value, {
    ...(country === null ? {} : { country }),
    validateMobilePrefix: options.mobile === true,
  });
  return result.isValid
    ? {
        isValid: true,
        phoneNumber: result.phoneNumber,
        countryIso2: result.countryIso2,
        countryIso3: result.countryIso3,
        countryCode: result.countryCode,
      }
    : { isValid: false, phoneNumber: null, countryIso2: null, countryIso3: null, countryCode: null };
}

/** The `phone` rule: a valid number for the country, mobile prefix not checked. */
export function validatePhone(value: unknown, country?: string | null): ValidationError | null {
  if (typeof value !== 'string') return fail('error.phone');
  return validatePhoneNumber(value, { country }).isValid ? null : fail('error.phone');
}

/**
 * The `mobile` rule: a number that is not even a valid phone number says error.phone; a valid
 * number without a mobile prefix says error.phone-mobile, so the user learns which is wrong.
 */
export function validateMobile(value: unknown, country?: string | null): ValidationError | null {
  if (typeof value !== 'string') return fail('error.phone');
  if (!validatePhoneNumber(value, { country }).isValid) return fail('error.phone');
  return validatePhoneNumber(value, { country, mobile: true }).isValid ? null : fail('error.phone-mobile');
}
