import { Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadableLazy } from '../../lib/preloadable-lazy';
import { Button } from '../ui/button';
import type { DeviceMapProps } from './device-map';
import { LazyDeviceMap } from './lazy-device-map';

// The preview's code (d3-geo, topojson-client) is a small chunk of its own, not part of the first screen.
const loadMapPreview = () => import('./map-preview');
const mapPreview = preloadableLazy(() => loadMapPreview().then((m) => m.MapPreview));
const MapPreview = mapPreview.Component;

/** Starts loading the preview's chunk and its base shapes, before a preview mounts. */
export function preloadMapPreview(): void {
  mapPreview.preload().catch(() => undefined);
  loadMapPreview().then(
    (m) => m.preloadPreviewShapes(),
    // The preview's own lazy import shows a failure.
    () => undefined,
  );
}

export interface PreviewedDeviceMapProps extends Omit<DeviceMapProps, 'styleUrl'> {
  /** the map style; undefined while it is not known yet (the preview needs none, the map waits for it) */
  styleUrl: string | null | undefined;
}

/**
 * The maps (by test id, one per widget) the user has turned to in this page's life. A map stays interactive
 * when its widget is mounted anew (the grid stacking at phone width, another dashboard tab and back), rather
 * than falling back to the preview under the user's hand.
 */
const activatedMaps = new Set<string>();

/**
 * A dashboard's device map: a still preview at first (map-preview.tsx, a 2D canvas), the interactive map
 * (MapLibre and deck.gl, the console's largest chunk and some seconds of WebGL set-up in software rendering)
 * only once the user turns to it: the pointer enters or presses on it, it gets the focus, or the
 * "Interact with map" button is used. Like cooperative gestures, this also keeps the dashboard's map from
 * taking the page's scrolling. The preview's test id is `${testId}-preview`; the map keeps `testId`.
 */
export function PreviewedDeviceMap({ styleUrl, ...props }: PreviewedDeviceMapProps) {
  const { t } = useTranslation();
  const testId = props.testId ?? 'device-map';
  const [interactive, setInteractive] = useState(() => activatedMaps.has(testId));
  // Focus (the keyboard's Tab) starts the map and takes the button away: the map then takes the focus.
  const [byFocus, setByFocus] = useState(false);
  const activate = useCallback(() => {
    activatedMaps.add(testId);
    setInteractive(true);
  }, [testId]);
  const activateByFocus = useCallback(() => {
    setByFocus(true);
    activate();
  }, [activate]);
  if (interactive && styleUrl !== undefined)
    return <LazyDeviceMap {...props} styleUrl={styleUrl} focusOnStart={byFocus} />;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the button inside is the keyboard's way in; pointer and focus only start early
    <div
      className="relative h-full min-h-48 w-full overflow-hidden rounded-md bg-muted"
      onPointerEnter={activate}
      onPointerDown={activate}
      onFocus={activateByFocus}
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
