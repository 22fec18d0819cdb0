import { useQueryClient } from '@tanstack/react-query';
import { devicesByIdsQueryOptions, devicesQueryOptions } from '../../lib/devices/get-devices';
import { useOpenDevice } from '../device-opener';

/**
 * A click on a map's device opens its drawer with the full row: from the start-up list when it is in,
 * else asked for by id (the map list carries only what a map draws).
 */
export function useOpenMapDevice(): (id: number) => Promise<void> {
  const queryClient = useQueryClient();
  const openDevice = useOpenDevice();
  return async (id) => {
    const cached = queryClient.getQueryData(devicesQueryOptions().queryKey)?.find((d) => d.id === id);
    const device = cached ?? (await queryClient.fetchQuery(devicesByIdsQueryOptions([id])))[0];
    if (device) openDevice(device);
  };
}
