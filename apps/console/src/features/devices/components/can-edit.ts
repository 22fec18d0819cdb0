import { useCurrentUser } from '../../../lib/auth';

/** ROLE_ADMIN and ROLE_MAINUSER edit devices (spec section 6); everyone else only views. */
export function canEditDevices(roles: readonly string[] | undefined): boolean {
  return !!roles && (roles.includes('ROLE_ADMIN') || roles.includes('ROLE_MAINUSER'));
}

export function useCanEditDevices(): boolean {
  return canEditDevices(useCurrentUser()?.roles);
}
