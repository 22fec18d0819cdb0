import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { notifySuccess } from '../../../lib/notify';
import type { Device } from '../../../types/device';
import { useDeviceShares, useShareDevice, useWaterAssociations } from '../api/water-api';

/**
 * "Share with an NWA" (device drawer and /water/devices): the associations the company belongs to, each
 * with share read-only, share with control, or take the share back.
 */
export function ShareDevicePanel({ device }: { device: Pick<Device, 'id' | 'name'> }) {
  const { t } = useTranslation();
  const associations = useWaterAssociations();
  const shares = useDeviceShares(device.id);
  const change = useShareDevice();
  const memberOf = (associations.data ?? []).filter((n) => n.role === 'member' || n.role === 'admin');
  const act = (nwaId: number, share: boolean, access: 'read' | 'control' = 'read') =>
    change.mutate(
      { nwaId, deviceId: device.id, access, share },
      { onSuccess: () => notifySuccess(t(share ? 'water.shared' : 'water.unshared')) },
    );
  if (associations.isFetched && memberOf.length === 0) {
    return <p className="p-4 text-sm text-muted-foreground">{t('water.share-none')}</p>;
  }
  return (
    <div className="flex flex-col gap-3 p-4" data-testid="water-share-panel">
      {memberOf.map((n) => {
        const share = shares.data?.find((s) => s.nwa_id === n.id);
        return (
          <div
            key={n.id}
            className="flex flex-wrap items-center justify-between gap-2"
            data-testid={`water-share-${n.id}`}
          >
            <span className="font-medium">
              {n.name}
              {share && <span className="text-muted-foreground"> · {t(`water.access-${share.access}`)}</span>}
            </span>
            <span className="flex gap-2">
              {share ? (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => act(n.id, false)}
                  data-testid={`water-unshare-${n.id}`}
                >
                  {t('water.unshare')}
                </Button>
              ) : (
                <>
                  <Button
                    size="sm"
                    onClick={() => act(n.id, true, 'read')}
                    data-testid={`water-share-read-${n.id}`}
                  >
                    {t('water.share-read')}
                  </Button>
                  <Button size="sm" variant="outline" onClick={() => act(n.id, true, 'control')}>
                    {t('water.share-control')}
                  </Button>
                </>
              )}
            </span>
          </div>
        );
      })}
    </div>
  );
}
