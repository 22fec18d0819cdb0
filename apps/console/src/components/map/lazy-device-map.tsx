import { lazy } from 'react';
import { LazyPanel } from '../lazy-panel';
import type { DeviceMapProps } from './device-map';

// MapLibre and deck.gl are a lazy chunk, loaded only when a map is on screen (or about to be).
export const preloadDeviceMap = () => import('./device-map');
const DeviceMap = lazy(() => preloadDeviceMap().then((m) => ({ default: m.DeviceMap })));

export function LazyDeviceMap(props: DeviceMapProps) {
  return (
    <LazyPanel>
      <DeviceMap {...props} />
    </LazyPanel>
  );
}
