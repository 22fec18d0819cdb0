import { lazy, type ReactNode } from 'react';
import { LazyPanel } from '../../../components/lazy-panel';
import type { EntityHeaderInfo } from '../../../components/shell/entity-drawer-header';
import { useOverlay } from '../../../components/shell/overlay-host';
import type { Device } from '../../../types/device';
import { DeviceTypeIcon } from './device-cells';

// Each drawer is its own lazy chunk, so the list stays light (uPlot only loads with a chart).
const DeviceInfoDrawer = lazy(() =>
  import('./device-info-drawer').then((m) => ({ default: m.DeviceInfoDrawer })),
);
const DeviceDataDrawer = lazy(() =>
  import('./device-data-drawer').then((m) => ({ default: m.DeviceDataDrawer })),
);
const DeviceLogsDrawer = lazy(() =>
  import('./device-logs-drawer').then((m) => ({ default: m.DeviceLogsDrawer })),
);
const DeviceTimetableDrawer = lazy(() =>
  import('./device-timetable-drawer').then((m) => ({ default: m.DeviceTimetableDrawer })),
);
const DeviceMetadataDrawer = lazy(() =>
  import('./device-metadata-drawer').then((m) => ({ default: m.DeviceMetadataDrawer })),
);
const DeviceEditDrawer = lazy(() =>
  import('./device-edit-drawer').then((m) => ({ default: m.DeviceEditDrawer })),
);
const DeviceBatteryDrawer = lazy(() =>
  import('./device-battery-drawer').then((m) => ({ default: m.DeviceBatteryDrawer })),
);
const DeviceMobileDrawer = lazy(() =>
  import('./device-mobile-drawer').then((m) => ({ default: m.DeviceMobileDrawer })),
);

export const DEVICE_DRAWERS = ['data', 'logs', 'timetable', 'battery', 'mobile', 'metadata', 'edit'] as const;
export type DeviceDrawerKind = (typeof DEVICE_DRAWERS)[number];

/** Drawer header of spec section 2: name, type icon, offline marker, identifier followed by the id. */
export function deviceHeader(device: Device): EntityHeaderInfo {
  return {
    name: device.name,
    icon: <DeviceTypeIcon type={device.device_type} />,
    is_active: device.is_active,
    identifier: device.serial_number || device.dev_eui || device.uuid || null,
    id: device.id,
  };
}

function lazyBody(node: ReactNode) {
  return <LazyPanel>{node}</LazyPanel>;
}

/** Opens the device drawers: the device itself in the first slot, its views stacked in the second. */
export function useDeviceDrawers() {
  const overlay = useOverlay();
  const openView = (device: Device, kind: DeviceDrawerKind) => {
    const body = (close: () => void): ReactNode => {
      switch (kind) {
        case 'data':
          return <DeviceDataDrawer device={device} />;
        case 'logs':
          return <DeviceLogsDrawer device={device} />;
        case 'timetable':
          return <DeviceTimetableDrawer device={device} />;
        case 'battery':
          return <DeviceBatteryDrawer device={device} />;
        case 'mobile':
          return <DeviceMobileDrawer device={device} />;
        case 'metadata':
          return <DeviceMetadataDrawer device={device} onDone={close} />;
        case 'edit':
          return <DeviceEditDrawer deviceId={device.id} onDone={close} />;
      }
    };
    overlay.openDrawer(
      {
        header: deviceHeader(device),
        wide: kind === 'data' || kind === 'battery' || kind === 'mobile' || kind === 'timetable',
        testId: `device-${kind}-drawer`,
        render: (close) => lazyBody(body(close)),
      },
      1,
    );
  };
  const openDevice = (device: Device) =>
    overlay.openDrawer({
      header: deviceHeader(device),
      testId: 'device-drawer',
      render: () => lazyBody(<DeviceInfoDrawer device={device} onOpen={(kind) => openView(device, kind)} />),
    });
  return { openDevice, openView };
}
