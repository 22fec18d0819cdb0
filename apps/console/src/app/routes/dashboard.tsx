import { DeviceOpenerProvider } from '../../components/device-opener';
import { DashboardsPage } from '../../features/dashboards/components/dashboards-page';
import { useDeviceDrawers } from '../../features/devices/components/device-drawers';
import { holdStartupDevices } from '../../lib/startup-gate';

// Before the shell renders: the start-up device list waits for the dashboard's widgets (lib/startup-gate.ts).
export function loader() {
  holdStartupDevices();
  return null;
}

export function Component() {
  const { openDevice } = useDeviceDrawers();
  return (
    <DeviceOpenerProvider open={openDevice}>
      <DashboardsPage />
    </DeviceOpenerProvider>
  );
}
