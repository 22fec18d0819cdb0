import { DeviceOpenerProvider } from '../../components/device-opener';
import { useDeviceDrawers } from '../../features/devices/components/device-drawers';
import { MapPage } from '../../features/map/components/map-page';

export function Component() {
  const { openDevice } = useDeviceDrawers();
  return (
    <DeviceOpenerProvider open={openDevice}>
      <MapPage />
    </DeviceOpenerProvider>
  );
}
