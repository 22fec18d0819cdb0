import { lazy, type RefObject, useEffect, useRef, useState } from 'react';
import { LazyPanel } from '../lazy-panel';
import type { DeviceMapProps } from './device-map';

// MapLibre and deck.gl are a lazy chunk, loaded only when a map is on screen (or about to be).
const preloadDeviceMap = () => import('./device-map');
const DeviceMap = lazy(() => preloadDeviceMap().then((m) => ({ default: m.DeviceMap })));

/** A map starts loading this far before it scrolls into view. */
const NEAR_VIEW_MARGIN = '200px';

/** True once the element is in view or within NEAR_VIEW_MARGIN of it (and stays true). */
function useNearView(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR_VIEW_MARGIN },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, near]);
  return near;
}

/**
 * The device map, its code loaded when the map is about to be visible: a map below the fold costs the
 * first paint nothing (the chunk is the largest of the console).
 */
export function LazyDeviceMap(props: DeviceMapProps) {
  const placeholder = useRef<HTMLDivElement>(null);
  const near = useNearView(placeholder);
  if (!near) {
    return (
      <div
        ref={placeholder}
        className="h-full min-h-48 w-full rounded-md bg-muted"
        data-testid={props.testId ?? 'device-map'}
        data-points={props.points.length}
        data-deferred="true"
      />
    );
  }
  return (
    <LazyPanel>
      <DeviceMap {...props} />
    </LazyPanel>
  );
}
