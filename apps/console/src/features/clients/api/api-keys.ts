import type {
  ApiKey,
  ClientLimitUse,
  CreateApiKeyInput,
  CreatedApiKey,
  ImpersonationRecord,
} from '@iot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /core/company/api-keys: the company's external API keys (main users and admins, licensed module). */
export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: ['core', 'company', 'api-keys'],
    queryFn: () => api<ApiKey[]>('/core/company/api-keys'),
  });

export function useApiKeys(enabled: boolean) {
  return useQuery({ ...apiKeysQueryOptions(), enabled });
}

/** POST /core/company/api-keys: the answer holds the key, the only time it is shown. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput) =>
      api<CreatedApiKey>('/core/company/api-keys', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey }),
  });
}

/** DELETE /core/company/api-keys/{id}: revokes (the key stops working at once). */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/core/company/api-keys/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey }),
  });
}

/** GET /core/company/limits: the company's limits with its current use. */
export function useCompanyLimits() {
  return useQuery({
    queryKey: ['core', 'company', 'limits'],
    queryFn: () => api<ClientLimitUse[]>('/core/company/limits'),
  });
}

/** GET /core/company/impersonations: when support acted as the company. */
export function useSupportAccessLog() {
  return useQuery({
    queryKey: ['core', 'company', 'impersonations'],
    queryFn: () => api<ImpersonationRecord[]>('/core/company/impersonations'),
  });
}
