import { fail, type ValidationError } from './types';

// Any RFC 9562 layout, version and variant not checked: device UUIDs come from many network servers.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SEPARATORS = /;|\r?\n/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function validateUuid(value: unknown): ValidationError | null {
  return typeof value === 'string' && isUuid(value.trim()) ? null : fail('error.uuid');
}

export function splitUuids(value: string): string[] {
  return value
    .split(SEPARATORS)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** Semicolon or line break separated, each a UUID, no duplicates; empty fails (spec section 5). */
export function validateUuidMultiple(value: unknown): ValidationError | null {
  if (typeof value !== 'string') return fail('error.uuid-multiple');
  const uuids = splitUuids(value);
  if (uuids.length === 0 || !uuids.every(isUuid)) return fail('error.uuid-multiple');
  const lower = uuids.map((uuid) => uuid.toLowerCase());
  return new Set(lower).size === lower.length ? null : fail('error.duplicate-values');
}
