/** Roles (spec section 6); other roles are not shown by the spec. */
export const ROLES = ['ROLE_ADMIN', 'ROLE_MAINUSER'] as const;
export type Role = (typeof ROLES)[number];

/** Modules licensed per company (spec section 6). */
export const MODULES = [
  'map_view',
  'parking',
  'farming',
  'water_association',
  'external_api',
  'paid_messaging',
] as const;
export type ModuleName = (typeof MODULES)[number];

/** The super administrator's company; it has all modules and skips the EULA redirect (spec sections 1, 6). */
export const SUPER_ADMIN_COMPANY_ID = 1;

/** Only this user id gets extra console error logging (spec section 6). */
export const DEBUG_LOGGING_USER_ID = 1;

export function isSuperAdminCompany(companyId: number): boolean {
  return companyId === SUPER_ADMIN_COMPANY_ID;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isModuleName(value: unknown): value is ModuleName {
  return typeof value === 'string' && (MODULES as readonly string[]).includes(value);
}

/** The super admin has every module; anyone else only the licensed ones (spec section 6). */
export function hasModule(companyId: number, licensed: readonly string[], module: ModuleName): boolean {
  return isSuperAdminCompany(companyId) || licensed.includes(module);
}
