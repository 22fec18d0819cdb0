import { useTranslation } from 'react-i18next';
import { SheetBody } from '../../../components/ui/sheet';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { useCurrentUser } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { hasModule } from '../../../lib/guards';
import type { ParkingArea } from '../types';
import { FreeOfCapacity, OccupancyBar } from './free-slots';

/** Info drawer: the area's bays or counting sensors with their state and since when. */
export function ParkingAreaInfo({ area }: { area: ParkingArea }) {
  const { t, i18n } = useTranslation();
  // The NGSI-LD export belongs to the external API module (the API refuses it without).
  const openData = hasModule(useCurrentUser(), 'external_api');
  return (
    <SheetBody className="flex flex-col gap-4 py-2" data-testid="parking-info">
      <div className="flex items-center gap-4">
        <FreeOfCapacity area={area} />
        <OccupancyBar area={area} />
      </div>
      {openData && (
        <a
          className="text-sm text-primary underline-offset-4 hover:underline"
          href={`/api/v1/parking/areas/${area.id}/ngsi-ld`}
          target="_blank"
          rel="noreferrer"
          data-testid="parking-ngsi-ld"
        >
          {t('parking.ngsi-ld')}
        </a>
      )}
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t('parking.bay-label')}</TableHead>
            <TableHead>{t('parking.devices')}</TableHead>
            <TableHead>{t('parking.occupancy')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {area.bays.map((bay) => (
            <TableRow
              key={bay.device_id}
              data-testid={`parking-bay-${bay.device_id}`}
              data-status={bay.status}
            >
              <TableCell className="font-medium">{bay.label ?? '–'}</TableCell>
              <TableCell>{bay.device_name}</TableCell>
              <TableCell>
                <span className={bay.overstay ? 'font-medium text-destructive' : undefined}>
                  {t(`parking.status.${bay.status}`)}
                  {bay.overstay && ` (${t('parking.overstay')})`}
                </span>
                {bay.reported_count !== null && area.type === 'AI' && (
                  <span className="ml-2">{t('parking.counted', { count: bay.reported_count })}</span>
                )}
                {bay.status_since && area.type === 'FIX' && (
                  <span className="ml-2 text-xs text-muted-foreground">
                    {t('parking.since', { time: formatDateTime(bay.status_since, i18n.language) })}
                  </span>
                )}
              </TableCell>
            </TableRow>
          ))}
          {area.bays.length === 0 && (
            <TableRow>
              <TableCell colSpan={3} className="text-center text-muted-foreground">
                {t('common.no-data')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </SheetBody>
  );
}
