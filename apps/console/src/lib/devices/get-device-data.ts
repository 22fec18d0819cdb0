import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DeviceSeries } from '../../types/device';
import { api } from '../api-client';

export interface DeviceDataParams {
  id: number;
  fields: readonly string[];
  from: number;
  to: number;
  /** buckets above this many rows (the API's max_points; its default 1500 when absent) */
  maxPoints?: number;
}

/**
 * GET /core/data/{id}: points of a period, or buckets with avg, min and max for long periods; flat, by
 * the stored field names the charts and tables key on.
 */
export function getDeviceData({ id, fields, from, to, maxPoints }: DeviceDataParams): Promise<DeviceSeries> {
  return api<DeviceSeries>(`/core/data/${id}`, {
    query: {
      shape: 'flat',
      data_fields: fields.length > 0 ? fields.join(',') : undefined,
      tsstart: new Date(from).toISOString(),
      tsend: new Date(to).toISOString(),
      max_points: maxPoints,
    },
  });
}

export const deviceDataQueryOptions = (params: DeviceDataParams) =>
  queryOptions({
    queryKey: ['core', 'data', params.id, params.fields.join(','), params.from, params.to, params.maxPoints],
    queryFn: () => getDeviceData(params),
    placeholderData: keepPreviousData,
  });

export function useDeviceData(params: DeviceDataParams, enabled = true) {
  return useQuery({ ...deviceDataQueryOptions(params), enabled });
}
