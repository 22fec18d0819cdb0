import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { IntegrationToken, TokenKind } from '../types';

/** GET /core/integrations/tokens: the company's webhook tokens, revoked ones marked (managers). */
export const integrationTokensQueryOptions = () =>
  queryOptions({
    queryKey: ['core', 'integrations', 'tokens'],
    queryFn: () => api<IntegrationToken[]>('/core/integrations/tokens'),
  });

export function useIntegrationTokens() {
  return useQuery(integrationTokensQueryOptions());
}

/** POST /core/integrations/tokens: the answer holds the token, the only time it is shown. */
export function useCreateIntegrationToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: TokenKind; name: string }) =>
      api<IntegrationToken & { token: string }>('/core/integrations/tokens', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationTokensQueryOptions().queryKey }),
  });
}

/** DELETE /core/integrations/tokens/{id}: revokes (the token stops working at once). */
export function useRevokeIntegrationToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<unknown>(`/core/integrations/tokens/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationTokensQueryOptions().queryKey }),
  });
}
