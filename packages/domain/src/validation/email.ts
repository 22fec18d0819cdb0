import { fail, type ValidationError } from './types';

// One address of the form local@domain.tld without spaces (spec section 5); deliberately not RFC 5322:
// the point is catching typos, the mail server decides the rest.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Newline, semicolon, comma or space separate addresses in multi-address fields (spec section 5).
const SEPARATORS = /[\r\n;, ]+/;

export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

export function validateEmail(value: unknown): ValidationError | null {
  return typeof value === 'string' && isEmail(value) ? null : fail('error.email');
}

/** Splits a multi-address field into its addresses, dropping empty pieces from doubled separators. */
export function splitEmails(value: string): string[] {
  return value.split(SEPARATORS).filter((part) => part !== '');
}

export function validateEmailMultiple(value: unknown): ValidationError | null {
  if (typeof value !== 'string') return fail('error.email-multiple');
  const emails = splitEmails(value);
  if (emails.length === 0 || !emails.every(isEmail)) return fail('error.email-multiple');
  // Addresses are compared case-insensitively: the same mailbox twice would send twice.
  const lower = emails.map((email) => email.toLowerCase());
  return new Set(lower).size === lower.length ? null : fail('error.duplicate-values');
}
