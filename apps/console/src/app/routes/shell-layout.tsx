import { ShellLayout } from '../layouts/shell-layout';

export function Component() {
  return <ShellLayout />;
}
