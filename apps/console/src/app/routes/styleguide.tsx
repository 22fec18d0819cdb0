import { StyleguidePage } from '../../features/styleguide/components/styleguide-page';

export function Component() {
  return <StyleguidePage />;
}
