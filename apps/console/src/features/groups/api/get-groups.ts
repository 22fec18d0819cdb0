import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Group } from '../types';

/** GET /core/groups: the acting company's groups with their device ids. */
export function getGroups(): Promise<Group[]> {
  return api<Group[]>('/core/groups');
}

export const groupsQueryOptions = () => queryOptions({ queryKey: ['core', 'groups'], queryFn: getGroups });

export function useGroups() {
  return useQuery(groupsQueryOptions());
}
