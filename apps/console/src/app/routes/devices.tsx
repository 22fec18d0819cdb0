import { DevicesPage } from '../../features/devices/components/devices-page';

export function Component() {
  return <DevicesPage />;
}
