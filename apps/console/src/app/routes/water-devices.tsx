import { WaterDevicesPage } from '../../features/water/components/water-devices-page';

export function Component() {
  return <WaterDevicesPage />;
}
