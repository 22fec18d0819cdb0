import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { devicePoints } from '../../../components/map/device-points';
import { PreviewedDeviceMap } from '../../../components/map/previewed-device-map';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import { useOpenMapDevice } from '../../../components/map/use-open-map-device';
import { deviceMapQueryOptions } from '../../../lib/devices/get-devices';
import { mapColorField } from '../prefetch-widget-data';
import type { MapSettings } from '../types';

/** The map's devices refresh on this interval without reloading (like the tables' latest values). */
export const MAP_REFRESH_MS = 30_000;

/**
 * The widget's devices (all when none are chosen) coloured by state or a field; a click opens the device.
 * It loads the lean map list (position, state, the colouring field, as columns), not the full device list.
 * It shows a still preview until the user turns to it (PreviewedDeviceMap): the interactive map's code and
 * WebGL set-up were most of the dashboard's blocking time.
 */
export function MapWidget({
  widgetId,
  settings,
  onSettled,
}: {
  widgetId: number;
  settings: MapSettings;
  /** told once the map has drawn its devices (or they failed to load) */
  onSettled?: (widgetId: number) => void;
}) {
  const styleUrl = useMapStyleUrl();
  const openMapDevice = useOpenMapDevice();
  const byField = mapColorField(settings);
  const devices = useQuery({ ...deviceMapQueryOptions(byField), refetchInterval: MAP_REFRESH_MS });
  // Settled once the devices are drawn (in the preview, or in the map once it is interactive), not merely
  // loaded: drawing competes with the start-up device list, which the dashboard releases when every widget
  // has settled.
  useEffect(() => {
    if (devices.isError) onSettled?.(widgetId);
  }, [devices.isError, onSettled, widgetId]);
  const drawn = useCallback(() => onSettled?.(widgetId), [onSettled, widgetId]);
  const points = useMemo(() => {
    if (!devices.data) return [];
    const color = byField ? ({ by: 'field', field: byField } as const) : ({ by: 'state' } as const);
    return devicePoints(devices.data, color, new Set(settings.device_ids ?? []));
  }, [devices.data, byField, settings.device_ids]);
  return (
    <PreviewedDeviceMap
      points={points}
      styleUrl={styleUrl}
      testId={`widget-${widgetId}-map`}
      onPointClick={openMapDevice}
      pending={!devices.isFetched}
      onDrawn={drawn}
    />
  );
}
