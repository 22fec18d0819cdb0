import { TasksPage } from '../../features/farming/components/tasks-page';

export function Component() {
  return <TasksPage />;
}
