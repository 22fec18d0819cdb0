import { ProgressPage } from '../../features/farming/components/progress-page';

export function Component() {
  return <ProgressPage />;
}
