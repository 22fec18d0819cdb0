import { lazy } from 'react';
import { LazyPanel } from '../../../components/lazy-panel';
import type { ParkingMapProps } from './parking-map';

// MapLibre and deck.gl load only when the parking map is on screen.
const ParkingMap = lazy(() => import('./parking-map'));

export function LazyParkingMap(props: ParkingMapProps) {
  return (
    <LazyPanel>
      <ParkingMap {...props} />
    </LazyPanel>
  );
}
