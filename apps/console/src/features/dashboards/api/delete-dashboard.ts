import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { dashboardsQueryOptions } from './get-dashboards';

/** DELETE /core/company/dashboards/{id}. */
export function deleteDashboard(id: number): Promise<unknown> {
  return api(`/core/company/dashboards/${id}`, { method: 'DELETE' });
}

export function useDeleteDashboard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDashboard,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dashboardsQueryOptions().queryKey }),
  });
}
