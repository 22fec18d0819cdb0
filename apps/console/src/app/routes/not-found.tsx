import { NotFoundPage } from '../../components/public/not-found-page';

export function Component() {
  return <NotFoundPage />;
}
