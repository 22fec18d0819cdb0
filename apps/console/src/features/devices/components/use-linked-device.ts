import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifyInfo } from '../../../lib/notify';
import type { Device } from '../../../types/device';
import { type DeviceFilterState, formatDeviceFilter } from '../device-filters';
import type { useDeviceDrawers } from './device-drawers';

/**
 * `?device=<id>` (a message's link) opens that device's drawer once the list is here, then leaves the
 * URL, so that closing the drawer does not open it again. By id: a renamed device is still found.
 */
export function useLinkedDevice({
  devices,
  filter,
  params,
  drawers,
}: {
  devices: readonly Device[] | undefined;
  filter: DeviceFilterState;
  params: URLSearchParams;
  drawers: ReturnType<typeof useDeviceDrawers>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const linkedId = params.get('device');
  const handledLink = useRef<string | null>(null);
  useEffect(() => {
    if (linkedId === null) handledLink.current = null;
    if (linkedId === null || !devices || handledLink.current === linkedId) return;
    handledLink.current = linkedId;
    const rest = new URLSearchParams(params);
    rest.delete('device');
    const { path, search: query } = formatDeviceFilter(filter, rest);
    void navigate(`${path}${query}`, { replace: true });
    const device = devices.find((d) => String(d.id) === linkedId);
    if (device) drawers.openDevice(device);
    else notifyInfo(t('devices.linked-not-found'));
  }, [linkedId, devices, params, filter, navigate, drawers, t]);
}
