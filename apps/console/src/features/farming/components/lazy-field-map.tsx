import { lazy } from 'react';
import { LazyPanel } from '../../../components/lazy-panel';
import type { FieldMapProps } from './field-map';

// MapLibre and deck.gl load only when a farming map is on screen.
const FieldMap = lazy(() => import('./field-map'));

export function LazyFieldMap(props: FieldMapProps) {
  return (
    <LazyPanel>
      <FieldMap {...props} />
    </LazyPanel>
  );
}
