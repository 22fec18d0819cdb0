import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Dashboard, Widget } from '../types';
import { dashboardsQueryOptions } from './get-dashboards';

export interface DashboardInput {
  id: number | null;
  name?: string;
  /** replaces the whole layout (the server hands out new widget ids) */
  widgets?: Widget[];
}

/** POST /core/company/dashboards or PUT /core/company/dashboards/{id} (ROLE_ADMIN, ROLE_MAINUSER). */
export function saveDashboard({ id, name, widgets }: DashboardInput): Promise<Dashboard> {
  const body = {
    ...(name !== undefined ? { name } : {}),
    ...(widgets !== undefined
      ? {
          widgets: widgets.map(({ type, title, x, y, w, h, settings }) => ({
            type,
            title,
            x,
            y,
            w,
            h,
            settings,
          })),
        }
      : {}),
  };
  return id === null
    ? api<Dashboard>('/core/company/dashboards', { method: 'POST', body: { widgets: [], ...body } })
    : api<Dashboard>(`/core/company/dashboards/${id}`, { method: 'PUT', body });
}

export function useSaveDashboard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDashboard,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dashboardsQueryOptions().queryKey }),
  });
}
