/** ROLE_ADMIN and ROLE_MAINUSER edit dashboards, groups, devices and the like (spec section 6). */
export function canEdit(roles: readonly string[] | undefined | null): boolean {
  return !!roles && (roles.includes('ROLE_ADMIN') || roles.includes('ROLE_MAINUSER'));
}
