import { isUuid } from '../validation/uuid';

/** Prefix of every virtual data field name: `virtual.<uuid>.<name>` (spec section 3). */
export const VIRTUAL_FIELD_PREFIX = 'virtual.';

export interface VirtualFieldName {
  uuid: string;
  name: string;
}

/**
 * Splits `virtual.<uuid>.<name>`. A name counts only if the middle part is a valid UUID (spec
 * section 3); the last part may itself contain dots and must not be empty.
 */
export function parseVirtualFieldName(fieldName: string): VirtualFieldName | null {
  if (!fieldName.startsWith(VIRTUAL_FIELD_PREFIX)) return null;
  const rest = fieldName.slice(VIRTUAL_FIELD_PREFIX.length);
  const dot = rest.indexOf('.');
  if (dot < 0) return null;
  const uuid = rest.slice(0, dot);
  const name = rest.slice(dot + 1);
  return isUuid(uuid) && name.trim() !== '' ? { uuid, name } : null;
}

export function isVirtualFieldName(fieldName: string): boolean {
  return parseVirtualFieldName(fieldName) !== null;
}

export function virtualFieldName(uuid: string, name: string): string {
  return `${VIRTUAL_FIELD_PREFIX}${uuid}.${name}`;
}
