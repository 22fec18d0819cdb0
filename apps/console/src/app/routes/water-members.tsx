import { WaterMembersPage } from '../../features/water/components/water-members-page';

export function Component() {
  return <WaterMembersPage />;
}
