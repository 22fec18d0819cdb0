import { useMemo } from 'react';
import type { CurrentUser } from '../../../types/api';
import { useWaterAssociations } from './water-api';

/**
 * The current user with its water relations (spec section 3: company is_nwa, relations with an nwa list,
 * the open membership requests of the menu badge), read from GET /nwa, for the menu.
 */
export function useWaterMenuUser(user: CurrentUser): CurrentUser {
  const relevant = user.company.is_nwa || (user.company.modules ?? []).includes('water_association');
  const list = useWaterAssociations(relevant);
  return useMemo(() => {
    if (!list.data) return user;
    const own = list.data.find((n) => n.id === user.company.id);
    const relations = list.data
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
  }, [user, list.data]);
}
