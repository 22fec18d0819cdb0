import { WaterSharedDevicesPage } from '../../features/water/components/water-shared-devices-page';

export function Component() {
  return <WaterSharedDevicesPage />;
}
