import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../ui/button';
import type { DeviceMapProps } from './device-map';
import { LazyDeviceMap } from './lazy-device-map';

// The preview's code (d3-geo, topojson-client) is a small chunk of its own, not part of the first screen.
const MapPreview = lazy(() => import('./map-preview').then((m) => ({ default: m.MapPreview })));

/**
 * A dashboard's device map: a still preview at first (map-preview.tsx, a 2D canvas), the interactive map
 * (MapLibre and deck.gl, the console's largest chunk and some seconds of WebGL set-up in software rendering)
 * only once the user turns to it: the pointer enters or presses on it, it gets the focus, or the
 * "Interact with map" button is used. Like cooperative gestures, this also keeps the dashboard's map from
 * taking the page's scrolling. The preview's test id is `${testId}-preview`; the map keeps `testId`.
 */
export function PreviewedDeviceMap(props: DeviceMapProps) {
  const { t } = useTranslation();
  const [interactive, setInteractive] = useState(false);
  const activate = useCallback(() => setInteractive(true), []);
  const testId = props.testId ?? 'device-map';
  if (interactive) return <LazyDeviceMap {...props} />;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the button inside is the keyboard's way in; pointer and focus only start early
    <div
      className="relative h-full min-h-48 w-full overflow-hidden rounded-md bg-muted"
      onPointerEnter={activate}
      onPointerDown={activate}
      onFocus={activate}
    >
      <Suspense fallback={null}>
        <MapPreview
          points={props.points}
          testId={`${testId}-preview`}
          label={t('map.preview-label')}
          pending={props.pending}
          onDrawn={props.onDrawn}
        />
      </Suspense>
      <Button
        type="button"
        size="sm"
        variant="secondary"
        className="absolute bottom-3 left-1/2 -translate-x-1/2 shadow"
        data-testid={`${testId}-interact`}
        onClick={activate}
      >
        {t('map.interact')}
      </Button>
    </div>
  );
}
