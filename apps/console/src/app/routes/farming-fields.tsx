import { FieldsPage } from '../../features/farming/components/fields-page';

export function Component() {
  return <FieldsPage />;
}
