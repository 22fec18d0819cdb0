import type { NwaSummary } from '@iot/contracts';
import { useMemo } from 'react';
import type { CurrentUser } from '../../../types/api';
import { useWaterAssociations } from './water-api';

/**
 * The user with its water relations (spec section 3: company is_nwa, relations with an nwa list, the open
 * membership requests of the menu badge), read from GET /nwa. A member company needs no licence of its own
 * (spec section 2: the module or an nwa relationship), so the list is asked for every company.
 */
export function withWaterRelations(user: CurrentUser, list: readonly NwaSummary[]): CurrentUser {
  const own = list.find((n) => n.id === user.company.id);
  const relations = list
    .filter((n) => n.role === 'admin' || n.role === 'member')
    .map((n) => ({ id: n.id, name: n.name, is_admin: n.is_admin }));
  return {
    ...user,
    company: {
      ...user.company,
      open_membership_requests: own?.open_request_count ?? 0,
      relations: { ...user.company.relations, nwa: relations },
    },
  };
}

/** The menu's user: relations once GET /nwa answered (a company without any gets an empty list). */
export function useWaterMenuUser(user: CurrentUser): CurrentUser {
  const list = useWaterAssociations(true);
  return useMemo(() => (list.data ? withWaterRelations(user, list.data) : user), [user, list.data]);
}

/**
 * The route guard's user for a water path (spec section 2, guards): when neither the module nor being an
 * NWA opens it, the relations decide, so the guard waits (`pending`) for GET /nwa.
 */
export function useWaterGuardUser(
  user: CurrentUser | null,
  needed: boolean,
): { user: CurrentUser | null; pending: boolean } {
  const list = useWaterAssociations(needed && user !== null);
  return useMemo(() => {
    if (!needed || !user) return { user, pending: false };
    if (list.isPending) return { user, pending: true };
    return { user: list.data ? withWaterRelations(user, list.data) : user, pending: false };
  }, [needed, user, list.isPending, list.data]);
}
