import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceMapProps } from './device-map';

// MapLibre and deck.gl are a lazy chunk, loaded only when a map is on screen (or about to be).
export const preloadDeviceMap = () => import('./device-map');
const DeviceMap = lazy(() => preloadDeviceMap().then((m) => ({ default: m.DeviceMap })));

export function LazyDeviceMap(props: DeviceMapProps) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<p className="p-4 text-sm text-muted-foreground">{t('common.loading')}</p>}>
      <DeviceMap {...props} />
    </Suspense>
  );
}
