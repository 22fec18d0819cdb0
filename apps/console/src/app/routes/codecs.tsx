import { CodecsPage } from '../../features/codecs/components/codecs-page';

export function Component() {
  return <CodecsPage />;
}
