/**
 * /nwa query hooks (issue #26). Spec section 8: a failed load of the details or the membership requests
 * leaves an empty object/list; update, unassign and set-admin pass the error on (the mutation rejects).
 * Every answer of a change carries the reloaded list, which goes straight into the cache.
 */
import type {
  MeterHistory,
  NwaDetails,
  NwaDirectoryEntry,
  NwaMember,
  NwaRequest,
  NwaSummary,
  NwaUsage,
  SharedDevice,
  UpdateNwa,
} from '@iot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const KEY = ['nwa'] as const;

export const waterListQueryOptions = (enabled = true) =>
  queryOptions({
    queryKey: [...KEY, 'list'],
    queryFn: () => api<NwaSummary[]>('/nwa', { quietStatuses: [403] }),
    staleTime: 30_000,
    enabled,
  });

export function useWaterAssociations(enabled = true) {
  return useQuery(waterListQueryOptions(enabled));
}

export function useWaterDirectory(enabled: boolean) {
  return useQuery({
    queryKey: [...KEY, 'directory'],
    queryFn: () => api<NwaDirectoryEntry[]>('/nwa/directory'),
    enabled,
  });
}

export function useWaterDetails(id: number | null) {
  return useQuery({
    queryKey: [...KEY, id, 'details'],
    queryFn: () => api<NwaDetails>(`/nwa/${id}`),
    enabled: id !== null,
  });
}

export function useWaterUsage(id: number | null) {
  return useQuery({
    queryKey: [...KEY, id, 'usage'],
    queryFn: () => api<NwaUsage>(`/nwa/${id}/usage`),
    enabled: id !== null,
  });
}

const requestsKey = (id: number | null) => [...KEY, id, 'requests'];

export function useWaterRequests(id: number | null, enabled = true) {
  return useQuery({
    queryKey: requestsKey(id),
    // Load failure: an empty list (spec section 8).
    queryFn: () => api<NwaRequest[]>(`/nwa/${id}/membership-requests`).catch(() => [] as NwaRequest[]),
    enabled: id !== null && enabled,
  });
}

const sharedKey = (id: number | null) => [...KEY, id, 'shared'];

export function useSharedDevices(id: number | null) {
  return useQuery({
    queryKey: sharedKey(id),
    queryFn: () => api<SharedDevice[]>(`/nwa/${id}/shared-devices`),
    enabled: id !== null,
  });
}

export function useMeterHistory(id: number, deviceId: number) {
  return useQuery({
    queryKey: [...KEY, id, 'history', deviceId],
    queryFn: () => api<MeterHistory>(`/nwa/${id}/shared-devices/${deviceId}/history`),
  });
}

export function useDeviceShares(deviceId: number) {
  return useQuery({
    queryKey: [...KEY, 'device-shares', deviceId],
    queryFn: () => api<SharedDevice[]>(`/nwa/devices/${deviceId}/shares`),
  });
}

/** Every change refreshes the association's views and the menu's list (badge, relations). */
function useRefresh(_id: number) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: KEY });
}

export function useUpdateWater(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (body: UpdateNwa) => api<NwaDetails>(`/nwa/${id}`, { method: 'PUT', body }),
    onSuccess: refresh,
  });
}

export function useUnassignMember(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: (companyId: number) =>
      api<NwaMember[]>(`/nwa/${id}/members/${companyId}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

export function useSetMemberAdmin(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: ({ companyId, isAdmin }: { companyId: number; isAdmin: boolean }) =>
      api<NwaMember[]>(`/nwa/${id}/members/${companyId}/set_admin`, {
        method: 'PUT',
        body: { is_admin: isAdmin },
      }),
    onSuccess: refresh,
  });
}

/** POST accepts, DELETE rejects; the answer is the reloaded list of open requests. */
export function useDecideRequest(id: number) {
  const client = useQueryClient();
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: ({ companyId, accept }: { companyId: number; accept: boolean }) =>
      api<NwaRequest[]>(`/nwa/${id}/request-membership/${companyId}`, { method: accept ? 'POST' : 'DELETE' }),
    onSuccess: (open) => {
      client.setQueryData(requestsKey(id), open);
      return refresh();
    },
  });
}

export function useUpdateSharedDevice(id: number) {
  const refresh = useRefresh(id);
  return useMutation({
    mutationFn: ({ deviceId, ...body }: { deviceId: number } & Partial<SharedDevice>) =>
      api<SharedDevice>(`/nwa/${id}/shared-devices/${deviceId}`, { method: 'PUT', body }),
    onSuccess: refresh,
  });
}

export function useShareDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      nwaId,
      deviceId,
      access,
      share,
    }: {
      nwaId: number;
      deviceId: number;
      access: 'read' | 'control';
      share: boolean;
    }) =>
      share
        ? api<SharedDevice[]>(`/nwa/${nwaId}/shared-devices`, {
            method: 'POST',
            body: { device_id: deviceId, access },
          })
        : api<SharedDevice[]>(`/nwa/${nwaId}/shared-devices/${deviceId}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

export function useAskToJoin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (nwaId: number) => api<NwaRequest>(`/nwa/${nwaId}/membership-requests`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

/** Switch a valve shared with control (association and admin members): POST .../downlink. */
export function useSwitchSharedValve(id: number) {
  return useMutation({
    mutationFn: ({ deviceId, on }: { deviceId: number; on: boolean }) =>
      api<{ id: number; state: string }>(`/nwa/${id}/shared-devices/${deviceId}/downlink`, {
        method: 'POST',
        body: { command: 'switch_solenoid_valve', params: { valve: 1, on } },
      }),
  });
}
