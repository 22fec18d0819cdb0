import { WaterOverviewPage } from '../../features/water/components/water-overview-page';

export function Component() {
  return <WaterOverviewPage />;
}
