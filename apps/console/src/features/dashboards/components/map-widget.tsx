import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useOpenDevice } from '../../../components/device-opener';
import { devicePoints } from '../../../components/map/device-points';
import { LazyDeviceMap } from '../../../components/map/lazy-device-map';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import {
  deviceMapQueryOptions,
  devicesByIdsQueryOptions,
  devicesQueryOptions,
} from '../../../lib/devices/get-devices';
import type { MapSettings } from '../types';

/** The map's devices refresh on this interval without reloading (like the tables' latest values). */
const LIVE_REFRESH_MS = 30_000;

/**
 * The widget's devices (all when none are chosen) coloured by state or a field; a click opens the device.
 * It loads the lean map list (position, state, the colouring field), not the full device list.
 */
export function MapWidget({
  widgetId,
  settings,
  onSettled,
}: {
  widgetId: number;
  settings: MapSettings;
  /** told once the map's devices are in (or failed) */
  onSettled?: (widgetId: number) => void;
}) {
  const styleUrl = useMapStyleUrl();
  const openDevice = useOpenDevice();
  const queryClient = useQueryClient();
  const byField = settings.color_by === 'field' && settings.data_field ? settings.data_field : null;
  const devices = useQuery({ ...deviceMapQueryOptions(byField), refetchInterval: LIVE_REFRESH_MS });
  useEffect(() => {
    if (devices.isFetched) onSettled?.(widgetId);
  }, [devices.isFetched, onSettled, widgetId]);
  const points = useMemo(() => {
    const list = devices.data ?? [];
    const chosen = new Set(settings.device_ids ?? []);
    const shown = chosen.size > 0 ? list.filter((d) => chosen.has(d.id)) : list;
    return devicePoints(shown, byField ? { by: 'field', field: byField } : { by: 'state' });
  }, [devices.data, byField, settings.device_ids]);
  if (styleUrl === undefined) return null;
  return (
    <LazyDeviceMap
      points={points}
      styleUrl={styleUrl}
      testId={`widget-${widgetId}-map`}
      onPointClick={async (id) => {
        // The drawer shows the full row: from the start-up list when it is in, else asked for.
        const cached = queryClient.getQueryData(devicesQueryOptions().queryKey)?.find((d) => d.id === id);
        const device = cached ?? (await queryClient.fetchQuery(devicesByIdsQueryOptions([id])))[0];
        if (device) openDevice(device);
      }}
    />
  );
}
