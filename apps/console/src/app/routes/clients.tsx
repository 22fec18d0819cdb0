import { ClientsTable } from '../../features/clients/components/clients-table';

export function Component() {
  return <ClientsTable />;
}
