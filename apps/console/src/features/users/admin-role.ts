import type { Role } from '@iot/domain';

export const ROLE_ADMIN: Role = 'ROLE_ADMIN';

/** The admin toggle: the roles with ROLE_ADMIN added or removed, the others kept in order. */
export function toggledRoles(roles: readonly string[], admin: boolean): string[] {
  const rest = roles.filter((r) => r !== ROLE_ADMIN);
  return admin ? [...rest, ROLE_ADMIN] : rest;
}
