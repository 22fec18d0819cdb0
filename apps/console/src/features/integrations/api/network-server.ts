import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { NetworkServer, NetworkServerInput } from '../types';

/** GET /core/integrations/network-server: where LoRaWAN downlinks go, without the token; null when unset. */
export const networkServerQueryOptions = () =>
  queryOptions({
    queryKey: ['core', 'integrations', 'network-server'],
    queryFn: () => api<NetworkServer | null>('/core/integrations/network-server'),
  });

export function useNetworkServer() {
  return useQuery(networkServerQueryOptions());
}

/**
 * Each device's details say how its commands leave (integration.downlink_via): the per-device queries
 * (`['core', 'devices', <id>, ...]`) are read again, not the device list, which does not carry it.
 */
function invalidateDeviceDetails(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: (query) =>
      query.queryKey[0] === 'core' &&
      query.queryKey[1] === 'devices' &&
      typeof query.queryKey[2] === 'number',
  });
}

export function useSaveNetworkServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NetworkServerInput) =>
      api<NetworkServer>('/core/integrations/network-server', { method: 'PUT', body: input }),
    onSuccess: (saved) => {
      queryClient.setQueryData(networkServerQueryOptions().queryKey, saved);
      return invalidateDeviceDetails(queryClient);
    },
  });
}

export function useRemoveNetworkServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<null>('/core/integrations/network-server', { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.setQueryData(networkServerQueryOptions().queryKey, null);
      return invalidateDeviceDetails(queryClient);
    },
  });
}
