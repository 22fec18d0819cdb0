import { ParkingPage } from '../../features/parking/components/parking-page';

export function Component() {
  return <ParkingPage />;
}
