import { PublicLayout } from '../layouts/public-layout';

export function Component() {
  return <PublicLayout />;
}
