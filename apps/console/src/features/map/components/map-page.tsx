import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { devicePoints } from '../../../components/map/device-points';
import { LazyDeviceMap } from '../../../components/map/lazy-device-map';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import { useOpenMapDevice } from '../../../components/map/use-open-map-device';
import { PageHeader } from '../../../components/shell/page-header';
import { deviceMapQueryOptions } from '../../../lib/devices/get-devices';

/**
 * /map (map view module): every device of the company, clustered when zoomed out; a click opens it. It
 * loads the lean map list, not the full device list.
 */
export function MapPage() {
  const { t } = useTranslation();
  const devices = useQuery(deviceMapQueryOptions());
  const styleUrl = useMapStyleUrl();
  const openMapDevice = useOpenMapDevice();
  const points = useMemo(
    () => (devices.data ? devicePoints(devices.data, { by: 'state' }) : []),
    [devices.data],
  );
  const missing = (devices.data?.count ?? 0) - points.length;
  return (
    <div className="flex h-[calc(100vh-9rem)] min-h-96 flex-col gap-4" data-testid="map-page">
      <PageHeader title={t('page.map')} />
      {missing > 0 && (
        <p className="text-sm text-muted-foreground" data-testid="map-without-position">
          {t('map.without-position', { count: missing })}
        </p>
      )}
      <div className="min-h-0 flex-1 rounded-xl border">
        {devices.isSuccess && styleUrl !== undefined && (
          <LazyDeviceMap points={points} styleUrl={styleUrl} testId="map-view" onPointClick={openMapDevice} />
        )}
      </div>
    </div>
  );
}
