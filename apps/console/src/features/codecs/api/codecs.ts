import type { Codec, CodecTestRequest, CodecTestResult } from '@iot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type { Codec, CodecTestRequest, CodecTestResult };

/** GET /core/codecs: the acting company's codecs (TS013 payload formatters) with their devices. */
export const codecsQueryOptions = () =>
  queryOptions({ queryKey: ['core', 'codecs'], queryFn: () => api<Codec[]>('/core/codecs') });

export function useCodecs() {
  return useQuery(codecsQueryOptions());
}

/** POST /core/codecs or PUT /core/codecs/{id}; the API loads the script first (90012 with its line). */
export function useSaveCodec() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number | null; name: string; script: string }) =>
      id === null
        ? api<Codec>('/core/codecs', { method: 'POST', body })
        : api<Codec>(`/core/codecs/${id}`, { method: 'PUT', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: codecsQueryOptions().queryKey }),
  });
}

export function useDeleteCodec() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(`/core/codecs/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: codecsQueryOptions().queryKey }),
  });
}

/** POST /core/codecs/test: runs the editor's source as it is, saved or not. */
export function useTestCodec() {
  return useMutation({
    mutationFn: (body: CodecTestRequest & { script: string }) =>
      api<CodecTestResult>('/core/codecs/test', { method: 'POST', body }),
  });
}
