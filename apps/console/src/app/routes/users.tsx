import { UsersTable } from '../../features/users/components/users-table';

export function Component() {
  return <UsersTable />;
}
