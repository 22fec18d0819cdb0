import { Share2Icon } from 'lucide-react';
import { lazy } from 'react';
import type { DeviceAction } from '../../components/device-actions';
import { LazyPanel } from '../../components/lazy-panel';

const ShareDevicePanel = lazy(() =>
  import('./components/share-device-panel').then((m) => ({ default: m.ShareDevicePanel })),
);

/** "Share with an NWA" in the device drawer (spec section 2, dialogs), for the device's main users and admins. */
export const WATER_DEVICE_ACTIONS: DeviceAction[] = [
  {
    id: 'water-share',
    labelKey: 'water.share-action',
    icon: Share2Icon,
    editorsOnly: true,
    as: 'dialog',
    render: (device) => (
      <LazyPanel>
        <ShareDevicePanel device={device} />
      </LazyPanel>
    ),
  },
];
