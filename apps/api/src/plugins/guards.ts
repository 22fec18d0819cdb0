/**
 * Route guards as hooks: a folder of routes registers `requireSession` once; single routes add the
 * role, super admin and module checks they need as preHandlers.
 */
import { hasModule, type ModuleName, type Role, SUPER_ADMIN_COMPANY_ID } from '@iot/domain';
import type { FastifyRequest } from 'fastify';
import { apiError } from '../lib/errors';
import type { AuthContext } from '../types';

export const ROLE_ADMIN: Role = 'ROLE_ADMIN';
export const ROLE_MAINUSER: Role = 'ROLE_MAINUSER';

/** 76 without a session; 74 or 75 when the session's user or company no longer qualifies. */
export async function requireSession(request: FastifyRequest): Promise<void> {
  if (request.auth) return;
  throw apiError(request.authFailure ?? 'NOT_LOGGED_IN');
}

/** The auth context of a route behind `requireSession`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw apiError('NOT_LOGGED_IN');
  return request.auth;
}

export function isManager(auth: AuthContext): boolean {
  return auth.roles.includes(ROLE_ADMIN) || auth.roles.includes(ROLE_MAINUSER);
}

/** The user belongs to the super admin company (id 1), whatever company it acts for. */
export function isSuperAdmin(auth: AuthContext): boolean {
  return auth.realCompanyId === SUPER_ADMIN_COMPANY_ID;
}

/** Client management: users of the super admin company (spec section 6); others get 401 (unauthorized). */
export async function requireSuperAdmin(request: FastifyRequest): Promise<void> {
  if (!isSuperAdmin(authOf(request))) throw apiError('UNAUTHORIZED');
}

/** Acting for a client (impersonation, blocking, deleting): a super admin with an admin or main role. */
export async function requireSuperAdminManager(request: FastifyRequest): Promise<void> {
  const auth = authOf(request);
  if (!isSuperAdmin(auth) || !isManager(auth)) throw apiError('IMPERSONATION_NOT_ALLOWED');
}

/**
 * Refuses a route to companies without the module licence. The acting company's licence counts; a super
 * admin has every module (spec section 6), also while acting for a client.
 */
export function requireModule(module: ModuleName) {
  return async function moduleGuard(request: FastifyRequest): Promise<void> {
    const auth = authOf(request);
    if (!hasModule(auth.realCompanyId, auth.company.modules, module)) {
      throw apiError('MODULE_NOT_LICENSED', { module });
    }
  };
}
