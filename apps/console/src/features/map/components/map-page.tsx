import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOpenDevice } from '../../../components/device-opener';
import { devicePoints } from '../../../components/map/device-points';
import { LazyDeviceMap } from '../../../components/map/lazy-device-map';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import { PageHeader } from '../../../components/shell/page-header';
import { useDevices } from '../../../lib/devices/get-devices';

/** /map (map view module): every device of the company, clustered when zoomed out; a click opens it. */
export function MapPage() {
  const { t } = useTranslation();
  const devices = useDevices();
  const styleUrl = useMapStyleUrl();
  const openDevice = useOpenDevice();
  const list = devices.data ?? [];
  const points = useMemo(() => devicePoints(devices.data ?? [], { by: 'state' }), [devices.data]);
  const byId = useMemo(() => new Map((devices.data ?? []).map((d) => [d.id, d])), [devices.data]);
  const missing = list.length - points.length;
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
          <LazyDeviceMap
            points={points}
            styleUrl={styleUrl}
            testId="map-view"
            onPointClick={(id) => {
              const device = byId.get(id);
              if (device) openDevice(device);
            }}
          />
        )}
      </div>
    </div>
  );
}
