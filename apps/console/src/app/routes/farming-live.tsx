import { LivePage } from '../../features/farming/components/live-page';

export function Component() {
  return <LivePage />;
}
