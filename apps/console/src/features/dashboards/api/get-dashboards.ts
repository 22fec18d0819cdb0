import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Dashboard } from '../types';

/** GET /core/company/dashboards: the company's dashboards in order, each with its widgets. */
export function getDashboards(): Promise<Dashboard[]> {
  return api<Dashboard[]>('/core/company/dashboards');
}

export const dashboardsQueryOptions = () =>
  queryOptions({ queryKey: ['core', 'company', 'dashboards'], queryFn: getDashboards });

export function useDashboards() {
  return useQuery(dashboardsQueryOptions());
}
