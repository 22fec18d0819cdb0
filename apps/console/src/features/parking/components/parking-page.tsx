import { ChartLineIcon, EyeIcon, InfoIcon, ParkingSquareIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import { ListToolbar } from '../../../components/shell/list-toolbar';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { useCurrentUser } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { canEdit } from '../../../lib/roles';
import { useDeleteParkingArea } from '../api/delete-parking-area';
import { useParkingAreas } from '../api/get-parking-areas';
import type { ParkingArea } from '../types';
import { FreeOfCapacity, OccupancyBar } from './free-slots';
import { LazyParkingMap } from './lazy-parking-map';
import { ParkingAreaData } from './parking-area-data';
import { ParkingAreaForm } from './parking-area-form';
import { ParkingAreaInfo } from './parking-area-info';

/**
 * /parking (parking module): the company's car parks on a map (outline coloured by the free share, a
 * badge with icon and free of capacity), and in a
 * table with free slots of capacity, occupancy, overstays and the last reading; add, edit, view, info and
 * data drawers. The list is polled (PARKING_REFRESH_MS), so counts change without a reload.
 */
export function ParkingPage() {
  const { t, i18n } = useTranslation();
  const overlay = useOverlay();
  const areas = useParkingAreas();
  const remove = useDeleteParkingArea();
  const editable = canEdit(useCurrentUser()?.roles);
  const styleUrl = useMapStyleUrl();
  const rows = useMemo(
    () => [...(areas.data ?? [])].sort((a, b) => a.name.localeCompare(b.name)),
    [areas.data],
  );
  const located = useMemo(
    () => rows.filter((a) => (a.latitude !== null && a.longitude !== null) || a.geometry !== null),
    [rows],
  );
  const header = (area: ParkingArea | null) =>
    area
      ? { name: area.name, id: area.id, icon: <ParkingSquareIcon /> }
      : { name: t('parking.add'), icon: <ParkingSquareIcon /> };
  // Drawers read the area from the polled list, so an open drawer shows live counts too.
  const live = (id: number) => rows.find((a) => a.id === id);

  const openForm = (area: ParkingArea | null, readOnly = false) =>
    overlay.openDrawer({
      header: header(area),
      testId: 'parking-drawer',
      render: (close) => <ParkingAreaForm area={area} onDone={close} readOnly={readOnly} />,
    });
  const openInfo = (area: ParkingArea) =>
    overlay.openDrawer({
      header: header(area),
      testId: 'parking-info-drawer',
      render: () => <LiveInfo id={area.id} fallback={area} />,
    });
  const openData = (area: ParkingArea) =>
    overlay.openDrawer({
      header: header(area),
      wide: true,
      testId: 'parking-data-drawer',
      render: () => <ParkingAreaData area={area} />,
    });
  const confirmDelete = async (area: ParkingArea) => {
    const ok = await overlay.confirm({
      title: t('parking.delete-title'),
      message: t('parking.delete-message', { name: area.name }),
      confirmLabel: t('common.delete'),
      destructive: true,
      testId: 'parking-delete-confirm',
    });
    if (ok) remove.mutate(area.id, { onSuccess: () => notifySuccess(t('parking.deleted')) });
  };

  const icon = (label: string, testId: string, onClick: () => void, Icon: typeof EyeIcon) => (
    <Button size="icon" variant="ghost" aria-label={label} onClick={onClick} data-testid={testId}>
      <Icon />
    </Button>
  );
  return (
    <div className="flex flex-col gap-4" data-testid="parking-page">
      <ListToolbar
        title={t('page.parking')}
        add={editable && { label: t('parking.add'), onClick: () => openForm(null), testId: 'parking-add' }}
      />
      {located.length > 0 && styleUrl !== undefined && (
        <div className="flex flex-col gap-1">
          <div className="h-80 overflow-hidden rounded-xl border">
            <LazyParkingMap
              areas={located}
              styleUrl={styleUrl}
              testId="parking-map"
              onAreaClick={(id) => {
                const area = live(id);
                if (area) openInfo(area);
              }}
            />
          </div>
          <p className="text-xs text-muted-foreground">{t('parking.legend')}</p>
        </div>
      )}
      <Card className="p-0">
        <Table data-testid="parking-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('parking.name')}</TableHead>
              <TableHead>{t('parking.type')}</TableHead>
              <TableHead>{t('parking.free-capacity')}</TableHead>
              <TableHead>{t('parking.occupancy')}</TableHead>
              <TableHead className="text-right">{t('parking.overstays')}</TableHead>
              <TableHead>{t('parking.last-update')}</TableHead>
              <TableHead className="w-48" />
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((area) => (
              <TableRow key={area.id} data-testid={`parking-row-${area.id}`}>
                <TableCell className="font-medium">
                  {area.name}
                  <span className="ml-2 text-xs text-muted-foreground">{t(`parking.icon.${area.icon}`)}</span>
                </TableCell>
                <TableCell>{t(`parking.type.${area.type}`)}</TableCell>
                <TableCell>
                  <FreeOfCapacity area={area} />
                </TableCell>
                <TableCell>
                  <OccupancyBar area={area} />
                </TableCell>
                <TableCell className={area.overstays > 0 ? 'text-right text-destructive' : 'text-right'}>
                  {area.overstays}
                </TableCell>
                <TableCell className="text-sm text-muted-foreground">
                  {area.last_reading_at ? formatDateTime(area.last_reading_at, i18n.language) : '–'}
                </TableCell>
                <TableCell className="flex justify-end gap-1">
                  {icon(t('parking.view'), `parking-view-${area.id}`, () => openForm(area, true), EyeIcon)}
                  {icon(t('parking.info'), `parking-info-${area.id}`, () => openInfo(area), InfoIcon)}
                  {icon(t('parking.data'), `parking-data-${area.id}`, () => openData(area), ChartLineIcon)}
                  {editable && (
                    <>
                      {icon(t('common.edit'), `parking-edit-${area.id}`, () => openForm(area), PencilIcon)}
                      {icon(
                        t('common.delete'),
                        `parking-delete-${area.id}`,
                        () => void confirmDelete(area),
                        Trash2Icon,
                      )}
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {areas.isSuccess && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={7} className="text-center text-muted-foreground">
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

/** The info drawer on the polled list: bays change state while it is open. */
function LiveInfo({ id, fallback }: { id: number; fallback: ParkingArea }) {
  const areas = useParkingAreas();
  return <ParkingAreaInfo area={areas.data?.find((a) => a.id === id) ?? fallback} />;
}
