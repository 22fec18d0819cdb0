import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { DeviceWithRules } from '../types';

/** GET /core/devices/{id}: the device with its rules (and the fields the rule forms offer). */
export function getDeviceRules(id: number): Promise<DeviceWithRules> {
  return api<DeviceWithRules>(`/core/devices/${id}`);
}

/** Under the device's own key, so saving anything of the device refreshes the device drawer too. */
export const deviceRulesQueryOptions = (id: number) =>
  queryOptions({ queryKey: ['core', 'devices', id, 'rules'], queryFn: () => getDeviceRules(id) });

export function useDeviceRules(id: number) {
  return useQuery(deviceRulesQueryOptions(id));
}
