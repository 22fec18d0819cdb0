import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { reloadCurrentUser } from '../../../lib/auth';

/** GET /core/leave_impersonation, then the super admin's own user is re-read. */
export async function leaveImpersonation() {
  try {
    await api<unknown>('/core/leave_impersonation');
  } catch (error) {
    // Spec section 8 names a console message for a failed leave.
    console.error('Leaving the impersonation failed', error);
    throw error;
  }
  return reloadCurrentUser();
}

export function useLeaveImpersonation() {
  return useMutation({ mutationFn: leaveImpersonation });
}
