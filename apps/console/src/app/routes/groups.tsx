import { GroupsPage } from '../../features/groups/components/groups-page';

export function Component() {
  return <GroupsPage />;
}
