import { ActivityIcon, BellRingIcon, MailCheckIcon, SendIcon, SigmaIcon } from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import type { DeviceAction } from '../../components/device-actions';

const RulesDrawer = lazy(() => import('./components/rules-drawer').then((m) => ({ default: m.RulesDrawer })));
const VirtualFieldsDrawer = lazy(() =>
  import('./components/virtual-fields-drawer').then((m) => ({ default: m.VirtualFieldsDrawer })),
);
const SensorChecksDrawer = lazy(() =>
  import('./components/sensor-checks-drawer').then((m) => ({ default: m.SensorChecksDrawer })),
);
const NotificationsDrawer = lazy(() =>
  import('./components/notifications-drawer').then((m) => ({ default: m.NotificationsDrawer })),
);
const DownlinkDialog = lazy(() =>
  import('./components/downlink-dialog').then((m) => ({ default: m.DownlinkDialog })),
);

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
  {
    id: 'notifications',
    labelKey: 'notifications.open',
    icon: MailCheckIcon,
    render: (device) => (
      <Lazy>
        <NotificationsDrawer device={device} />
      </Lazy>
    ),
  },
  {
    id: 'virtual-fields',
    labelKey: 'virtual.open',
    icon: SigmaIcon,
    render: (device) => (
      <Lazy>
        <VirtualFieldsDrawer device={device} />
      </Lazy>
    ),
  },
  {
    id: 'sensor-checks',
    labelKey: 'checks.open',
    icon: ActivityIcon,
    render: (device) => (
      <Lazy>
        <SensorChecksDrawer device={device} />
      </Lazy>
    ),
  },
  {
    id: 'downlink',
    labelKey: 'downlink.open',
    icon: SendIcon,
    editorsOnly: true,
    as: 'dialog',
    render: (device) => (
      <Lazy>
        <DownlinkDialog device={device} />
      </Lazy>
    ),
  },
];
