import { EulaPage } from '../../features/auth/components/eula-page';

export function Component() {
  return <EulaPage />;
}
