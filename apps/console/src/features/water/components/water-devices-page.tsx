import { isWaterDevice } from '@iot/domain';
import { Share2Icon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOverlay } from '../../../components/shell/overlay-host';
import { PageHeader } from '../../../components/shell/page-header';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { useCurrentUser } from '../../../lib/auth';
import { useDevices } from '../../../lib/devices/get-devices';
import { canEdit } from '../../../lib/roles';
import { ShareDevicePanel } from './share-device-panel';

/**
 * /water/devices/:id?: device management of the company's own water devices (meters, flow meters, valves,
 * pumps): the association's own wells and pumps, or a member's meters and valves with their shares.
 */
export function WaterDevicesPage() {
  const { t } = useTranslation();
  const overlay = useOverlay();
  const user = useCurrentUser();
  const devices = useDevices();
  const water = (devices.data ?? []).filter((d) => isWaterDevice(Object.keys(d.data ?? {})));
  const member = !user?.company.is_nwa && canEdit(user?.roles);
  const openShare = (device: { id: number; name: string }) =>
    overlay.openDialog({
      title: t('water.share-title', { name: device.name }),
      render: () => <ShareDevicePanel device={device} />,
    });
  return (
    <div className="flex flex-col gap-4" data-testid="water-devices-page">
      <PageHeader title={t('page.water-devices')} />
      <Card className="p-0">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('water.device')}</TableHead>
              <TableHead>{t('water.serial')}</TableHead>
              <TableHead />
            </TableRow>
          </TableHeader>
          <TableBody>
            {water.map((d) => (
              <TableRow key={d.id} data-testid={`water-device-${d.id}`}>
                <TableCell className="font-medium">
                  <Link className="underline" to={`/devices?device=${d.id}`}>
                    {d.name}
                  </Link>
                </TableCell>
                <TableCell className="text-muted-foreground">{d.serial_number}</TableCell>
                <TableCell className="flex justify-end">
                  {member && (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => openShare(d)}
                      data-testid={`water-device-share-${d.id}`}
                    >
                      <Share2Icon />
                      {t('water.share-action')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {devices.isFetched && water.length === 0 && (
              <TableRow>
                <TableCell colSpan={3} className="text-center text-muted-foreground">
                  {t('common.no-data')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Card>
    </div>
  );
}
