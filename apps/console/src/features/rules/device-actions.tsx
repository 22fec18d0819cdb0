import { ActivityIcon, BellRingIcon, MailCheckIcon, SendIcon, SigmaIcon } from 'lucide-react';
import { lazy } from 'react';
import type { DeviceAction } from '../../components/device-actions';
import { LazyPanel } from '../../components/lazy-panel';

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

/** This feature's views of a device, for the device drawer (registered by the app). */
export const RULES_DEVICE_ACTIONS: DeviceAction[] = [
  {
    id: 'rules',
    labelKey: 'rules.open',
    icon: BellRingIcon,
    render: (device) => (
      <LazyPanel>
        <RulesDrawer device={device} />
      </LazyPanel>
    ),
  },
  {
    id: 'notifications',
    labelKey: 'notifications.open',
    icon: MailCheckIcon,
    render: (device) => (
      <LazyPanel>
        <NotificationsDrawer device={device} />
      </LazyPanel>
    ),
  },
  {
    id: 'virtual-fields',
    labelKey: 'virtual.open',
    icon: SigmaIcon,
    render: (device) => (
      <LazyPanel>
        <VirtualFieldsDrawer device={device} />
      </LazyPanel>
    ),
  },
  {
    id: 'sensor-checks',
    labelKey: 'checks.open',
    icon: ActivityIcon,
    render: (device) => (
      <LazyPanel>
        <SensorChecksDrawer device={device} />
      </LazyPanel>
    ),
  },
  {
    id: 'downlink',
    labelKey: 'downlink.open',
    icon: SendIcon,
    editorsOnly: true,
    as: 'dialog',
    render: (device) => (
      <LazyPanel>
        <DownlinkDialog device={device} />
      </LazyPanel>
    ),
  },
];
