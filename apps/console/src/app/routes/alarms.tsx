import { DeviceOpenerProvider } from '../../components/device-opener';
import { AlarmsPage } from '../../features/alarms/components/alarms-page';
import { useDeviceDrawers } from '../../features/devices/components/device-drawers';

export function Component() {
  const { openDevice } = useDeviceDrawers();
  return (
    <DeviceOpenerProvider open={openDevice}>
      <AlarmsPage />
    </DeviceOpenerProvider>
  );
}
