import { WaterDashboardPage } from '../../features/water/components/water-dashboard-page';

export function Component() {
  return <WaterDashboardPage />;
}
