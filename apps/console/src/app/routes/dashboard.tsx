import { DeviceOpenerProvider } from '../../components/device-opener';
import { DashboardsPage } from '../../features/dashboards/components/dashboards-page';
import { useDeviceDrawers } from '../../features/devices/components/device-drawers';

export function Component() {
  const { openDevice } = useDeviceDrawers();
  return (
    <DeviceOpenerProvider open={openDevice}>
      <DashboardsPage />
    </DeviceOpenerProvider>
  );
}
