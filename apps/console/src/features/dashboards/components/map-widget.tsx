import { useMemo } from 'react';
import { useOpenDevice } from '../../../components/device-opener';
import { devicePoints } from '../../../components/map/device-points';
import { LazyDeviceMap } from '../../../components/map/lazy-device-map';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import type { Device } from '../../../types/device';
import type { MapSettings } from '../types';

/** The widget's devices (all when none are chosen) coloured by state or a field; a click opens the device. */
export function MapWidget({
  widgetId,
  settings,
  devices,
}: {
  widgetId: number;
  settings: MapSettings;
  devices: readonly Device[];
}) {
  const styleUrl = useMapStyleUrl();
  const openDevice = useOpenDevice();
  const points = useMemo(() => {
    const chosen = new Set(settings.device_ids ?? []);
    const shown = chosen.size > 0 ? devices.filter((d) => chosen.has(d.id)) : devices;
    return devicePoints(
      shown,
      settings.color_by === 'field' && settings.data_field
        ? { by: 'field', field: settings.data_field }
        : { by: 'state' },
    );
  }, [devices, settings.color_by, settings.data_field, settings.device_ids]);
  const byId = useMemo(() => new Map(devices.map((d) => [d.id, d])), [devices]);
  if (styleUrl === undefined) return null;
  return (
    <LazyDeviceMap
      points={points}
      styleUrl={styleUrl}
      testId={`widget-${widgetId}-map`}
      onPointClick={(id) => {
        const device = byId.get(id);
        if (device) openDevice(device);
      }}
    />
  );
}
