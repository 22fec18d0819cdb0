import { useParams } from 'react-router';
import { useCurrentUser } from '../../../lib/auth';
import { useWaterAssociations } from '../api/water-api';

/**
 * The association a water screen shows: the route's :id, else the company itself when it is an NWA, else
 * the first association it belongs to.
 */
export function useWaterId(): number | null {
  const { id } = useParams();
  const user = useCurrentUser();
  const list = useWaterAssociations(!id && !user?.company.is_nwa);
  if (id && /^\d+$/.test(id)) return Number(id);
  if (user?.company.is_nwa) return user.company.id;
  return list.data?.[0]?.id ?? null;
}
