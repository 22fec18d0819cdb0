import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Alarm } from '../types';
import { alarmsQueryOptions } from './get-alarms';

/** PUT /core/devices/alarms/{id}/acknowledge (any user of the company). */
export function acknowledgeAlarm(id: number): Promise<Alarm> {
  return api<Alarm>(`/core/devices/alarms/${id}/acknowledge`, { method: 'PUT' });
}

export function useAcknowledgeAlarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeAlarm,
    // Both filters (and the start-up list) share the prefix of the query's own key.
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: alarmsQueryOptions('all').queryKey.slice(0, 3) }),
  });
}
