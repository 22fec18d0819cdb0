import { BellRingIcon } from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import type { DeviceAction } from '../../components/device-actions';

const RulesDrawer = lazy(() => import('./components/rules-drawer').then((m) => ({ default: m.RulesDrawer })));

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<p className="p-4 text-sm text-muted-foreground">…</p>}>{children}</Suspense>;
}

/** This feature's views of a device, for the device drawer (registered by the app). */
export const RULES_DEVICE_ACTIONS: DeviceAction[] = [
  {
    id: 'rules',
    labelKey: 'rules.open',
    icon: BellRingIcon,
    render: (device) => (
      <Lazy>
        <RulesDrawer device={device} />
      </Lazy>
    ),
  },
];
