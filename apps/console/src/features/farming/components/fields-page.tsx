import { formatArea } from '@iot/domain';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { PencilIcon, SproutIcon, Trash2Icon } from 'lucide-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMapStyleUrl } from '../../../components/map/use-map-style';
import { ListToolbar } from '../../../components/shell/list-toolbar';
import { useOverlay } from '../../../components/shell/overlay-host';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { useCurrentUser } from '../../../lib/auth';
import { canEdit } from '../../../lib/roles';
import { type FarmingField, useCatalogue, useDeleteField, useFields } from '../api/farming-api';
import { FieldForm } from './field-form';
import type { MapPolygon } from './field-map';
import { differsFromParcels, ringsOf } from './geometry';
import { LazyFieldMap } from './lazy-field-map';
import { ParcelsPanel } from './parcels-panel';

const PALETTE: Array<[number, number, number]> = [
  [22, 163, 74],
  [202, 138, 4],
  [37, 99, 235],
  [147, 51, 234],
  [220, 38, 38],
];

/** /farming/fields: the fields on a map beside their table, add/edit drawers, and parcel management. */
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
  const confirmDelete = async (field: FarmingField) => {
    const ok = await overlay.confirm({
      title: t('farming.delete-field'),
      message: t('farming.delete-field-message', { name: field.name }),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (ok) remove.mutate(field.id);
  };

  const data = useMemo(() => fields.data ?? [], [fields.data]);
  const polygons = useMemo<MapPolygon[]>(
    () =>
      data.flatMap((f, i) =>
        ringsOf(f.boundary).map((rings, j) => ({
          id: `${f.id}-${j}`,
          rings,
          color: PALETTE[i % PALETTE.length]!,
        })),
      ),
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
    ],
    [t, lang, soils.data, plants.data],
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
            <LazyFieldMap testId="fields-map" styleUrl={styleUrl} polygons={polygons} />
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
                  <TableCell colSpan={7} className="text-center text-muted-foreground">
                    {t('common.no-data')}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </Card>
      </div>
      <ParcelsPanel editable={editable} />
    </div>
  );
}
