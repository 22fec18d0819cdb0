import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { DeviceWithRules, RuleInput } from '../types';
import { deviceRulesQueryOptions } from './get-device-rules';

/** PUT /core/devices/{id} with `rules`: a rule without id is created, with id updated; others stay. */
export function saveRule(deviceId: number, rule: RuleInput): Promise<DeviceWithRules> {
  return api<DeviceWithRules>(`/core/devices/${deviceId}`, { method: 'PUT', body: { rules: [rule] } });
}

/** DELETE /core/devices/{device_id}/rules/{rule_id}. */
export function deleteRule(deviceId: number, ruleId: number): Promise<unknown> {
  return api<unknown>(`/core/devices/${deviceId}/rules/${ruleId}`, { method: 'DELETE' });
}

// The device's key (prefix of the rules key): the device drawer shows the rule count.
const deviceKey = (deviceId: number) => deviceRulesQueryOptions(deviceId).queryKey.slice(0, 3);

export function useSaveRule(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: RuleInput) => saveRule(deviceId, rule),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKey(deviceId) }),
  });
}

export function useDeleteRule(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ruleId: number) => deleteRule(deviceId, ruleId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKey(deviceId) }),
  });
}
