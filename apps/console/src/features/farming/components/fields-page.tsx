import { formatArea } from '@iot/domain';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { EyeIcon, PencilIcon, SproutIcon, Trash2Icon } from 'lucide-react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import { ListToolbar } from '../../../components/shell/list-toolbar';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { useCurrentUser } from '../../../lib/auth';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { canEdit } from '../../../lib/roles';
import {
  type FarmingField,
  useCatalogue,
  useDeleteField,
  useFields,
  useFieldsCurrent,
} from '../api/farming-api';
import { CataloguePanel } from './catalogue-panel';
import { FieldForm } from './field-form';
import type { MapPolygon } from './field-map';
import { type CurrentOfDevice, fieldMoisture, lastReadingAt, MOISTURE_COLORS } from './field-readings';
import { FieldView } from './field-view';
import { differsFromParcels, ringsOf } from './geometry';
import { LazyFieldMap } from './lazy-field-map';
import { ParcelsPanel } from './parcels-panel';

/**
 * /farming/fields: the fields on a map, coloured by their current soil moisture class (pF, spec section
 * 4; grey without a current pF reading), beside their table with the last reading; view, add and edit
 * drawers, parcel management and the company's own soils and plants.
 */
export function FieldsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language.startsWith('de') ? 'de' : 'en';
  const overlay = useOverlay();
  const fields = useFields();
  const soils = useCatalogue('soils');
  const plants = useCatalogue('plants');
  const remove = useDeleteField();
  const styleUrl = useMapStyleUrl();
  const editable = canEdit(useCurrentUser()?.roles);
  const nameOf = (list: typeof soils.data, code: string | null) => {
    const e = list?.find((x) => x.code === code);
    return e ? (lang === 'de' ? e.name_de : e.name_en) : (code ?? '–');
  };
  const data = useMemo(() => fields.data ?? [], [fields.data]);
  const current = useFieldsCurrent(data.flatMap((f) => f.device_ids));
  const devicesOf = useCallback(
    (field: FarmingField): CurrentOfDevice[] =>
      (current.data?.devices ?? []).filter((d) => field.device_ids.includes(d.device_id)),
    [current.data],
  );
  const openForm = (field: FarmingField | null) =>
    overlay.openDrawer({
      header: {
        name: field?.name ?? t('farming.add-field'),
        icon: <SproutIcon />,
        ...(field ? { id: field.id } : {}),
      },
      testId: 'field-drawer',
      render: (close) => <FieldForm field={field} onDone={close} />,
    });
  const openView = (field: FarmingField) =>
    overlay.openDrawer({
      header: { name: field.name, icon: <SproutIcon />, id: field.id },
      testId: 'field-view-drawer',
      render: () => <FieldView field={field} {...(editable ? { onEdit: () => openForm(field) } : {})} />,
    });
  const confirmDelete = async (field: FarmingField) => {
    const ok = await overlay.confirm({
      title: t('farming.delete-field'),
      message: t('farming.delete-field-message', { name: field.name }),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (ok) remove.mutate(field.id);
  };

  const polygons = useMemo<MapPolygon[]>(
    () =>
      data.flatMap((f) => {
        const cls = fieldMoisture(devicesOf(f))?.cls ?? 'none';
        return ringsOf(f.boundary).map((rings, j) => ({
          id: `${f.id}-${j}`,
          rings,
          color: MOISTURE_COLORS[cls],
          moistureClass: cls,
        }));
      }),
    [data, devicesOf],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: openView only opens the overlay's drawer.
  const onPolygonClick = useCallback(
    (id: number | string) => {
      const field = data.find((f) => String(id).startsWith(`${f.id}-`));
      if (field) openView(field);
    },
    [data],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: nameOf reads only the catalogues listed.
  const columns = useMemo<ColumnDef<FarmingField>[]>(
    () => [
      { accessorKey: 'name', header: t('farming.name') },
      { id: 'plant', header: t('farming.plant'), accessorFn: (f) => nameOf(plants.data, f.plant) },
      { id: 'soil', header: t('farming.soil'), accessorFn: (f) => nameOf(soils.data, f.soil) },
      { accessorKey: 'count_parcels', header: t('farming.parcels') },
      {
        accessorKey: 'size_m2',
        header: t('farming.size'),
        cell: ({ row }) => (
          <span data-testid={`field-size-${row.original.id}`}>
            {formatArea(row.original.size_m2, lang)}
            {differsFromParcels(row.original.boundary_area_m2, row.original.size_m2) && (
              <span className="ml-1 text-amber-700" title={t('farming.area-mismatch')}>
                ⚠
              </span>
            )}
          </span>
        ),
      },
      { accessorKey: 'count_devices', header: t('farming.devices') },
      {
        id: 'last_reading',
        header: t('farming.last-reading'),
        accessorFn: (f) => lastReadingAt(devicesOf(f)) ?? '',
        cell: ({ row }) => {
          const own = devicesOf(row.original);
          const moisture = fieldMoisture(own);
          const at = lastReadingAt(own);
          const num = (v: number) => formatNumber(v, lang, { maximumFractionDigits: 1 });
          return (
            <span data-testid={`field-last-reading-${row.original.id}`}>
              {moisture && (
                <span
                  className="mr-1 inline-block size-2 rounded-full"
                  style={{ background: `rgb(${MOISTURE_COLORS[moisture.cls ?? 'none'].join(',')})` }}
                />
              )}
              {moisture
                ? moisture.kind === 'pf'
                  ? `pF ${num(moisture.reading.value)}`
                  : `${num(moisture.reading.value)} %`
                : ''}
              {moisture && at ? ' · ' : ''}
              {at ? formatDateTime(at, lang) : '–'}
              {moisture?.reading.stale && (
                <span className="ml-1 text-amber-700" title={t('farming.stale')}>
                  ⚠
                </span>
              )}
            </span>
          );
        },
      },
    ],
    [t, lang, soils.data, plants.data, devicesOf],
  );
  const table = useReactTable({
    data,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  return (
    <div className="flex flex-col gap-4" data-testid="farming-fields-page">
      <ListToolbar
        title={t('page.farming-fields')}
        add={
          editable && { label: t('farming.add-field'), onClick: () => openForm(null), testId: 'field-add' }
        }
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card className="h-96 overflow-hidden p-0">
          {styleUrl !== undefined && fields.isSuccess && (
            <LazyFieldMap
              testId="fields-map"
              styleUrl={styleUrl}
              polygons={polygons}
              onPolygonClick={onPolygonClick}
            />
          )}
        </Card>
        <Card className="p-0">
          <Table data-testid="fields-table">
            <TableHeader>
              {table.getHeaderGroups().map((hg) => (
                <TableRow key={hg.id}>
                  {hg.headers.map((h) => (
                    <TableHead
                      key={h.id}
                      onClick={h.column.getToggleSortingHandler()}
                      className="cursor-pointer"
                    >
                      {flexRender(h.column.columnDef.header, h.getContext())}
                    </TableHead>
                  ))}
                  <TableHead />
                </TableRow>
              ))}
            </TableHeader>
            <TableBody>
              {table.getRowModel().rows.map((row) => (
                <TableRow key={row.id} data-testid={`field-row-${row.original.id}`}>
                  {row.getVisibleCells().map((cell) => (
                    <TableCell key={cell.id}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </TableCell>
                  ))}
                  <TableCell className="flex justify-end gap-1">
                    <Button
                      size="icon"
                      variant="ghost"
                      aria-label={t('farming.view-field')}
                      onClick={() => openView(row.original)}
                      data-testid={`field-view-${row.original.id}`}
                    >
                      <EyeIcon />
                    </Button>
                    {editable && (
                      <>
                        <Button
                          size="icon"
                          variant="ghost"
                          aria-label={t('common.edit')}
                          onClick={() => openForm(row.original)}
                          data-testid={`field-edit-${row.original.id}`}
                        >
                          <PencilIcon />
                        </Button>
                        <Button
                          size="icon"
                          variant="ghost"
                          aria-label={t('common.delete')}
                          onClick={() => void confirmDelete(row.original)}
                        >
                          <Trash2Icon />
                        </Button>
                      </>
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {fields.isSuccess && data.length === 0 && (
                <TableRow>
                  <TableCell colSpan={8} className="text-center text-muted-foreground">
                    {t('common.no-data')}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </Card>
      </div>
      <div className="flex flex-wrap items-center gap-3 text-xs" data-testid="moisture-legend">
        {(['pf0', 'pf1', 'pf2', 'pf3', 'pf4', 'pf5'] as const).map((cls) => (
          <span key={cls} className="inline-flex items-center gap-1">
            <span
              className="inline-block size-3 rounded-sm"
              style={{ background: `rgb(${MOISTURE_COLORS[cls].join(',')})` }}
            />
            {t(`display.soil.${cls}` as 'farming.stale')}
          </span>
        ))}
        <span className="inline-flex items-center gap-1">
          <span
            className="inline-block size-3 rounded-sm"
            style={{ background: `rgb(${MOISTURE_COLORS.none.join(',')})` }}
          />
          {t('farming.no-moisture-class')}
        </span>
      </div>
      <ParcelsPanel editable={editable} />
      <CataloguePanel editable={editable} />
    </div>
  );
}
