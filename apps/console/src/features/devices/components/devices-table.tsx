import {
  type ColumnDef,
  getCoreRowModel,
  getSortedRowModel,
  type OnChangeFn,
  type Row,
  type SortingState,
  type Table,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { renderTableContent } from '../../../components/ui/table';
import type { Device } from '../../../types/device';

/** Fixed row height: the virtualizer positions rows without measuring them, so 10k rows scroll smoothly. */
const ROW_HEIGHT = 52;
const GRID =
  'minmax(14rem,2fr) minmax(8rem,1fr) minmax(8rem,1fr) 4rem minmax(9rem,1fr) 3rem 4.5rem 7rem minmax(14rem,2fr)';

/** Column headers; each but the stale marker's sorts its column. */
function DevicesTableHead({ table }: { table: Table<Device> }) {
  const { t } = useTranslation();
  return (
    <thead className="sticky top-0 z-10 grid border-b bg-muted text-xs font-medium text-muted-foreground">
      <tr className="grid" style={{ gridTemplateColumns: GRID }}>
        {table.getHeaderGroups()[0]?.headers.map((header) => {
          const sorted = header.column.getIsSorted();
          const SortIcon =
            sorted === 'asc' ? ArrowUpIcon : sorted === 'desc' ? ArrowDownIcon : ArrowUpDownIcon;
          return (
            <th key={header.id} className="px-3 py-2 text-left font-medium">
              {header.id === 'stale' ? (
                <span className="sr-only">{t('devices.preset.stale')}</span>
              ) : (
                <button
                  type="button"
                  className="inline-flex items-center gap-1"
                  onClick={header.column.getToggleSortingHandler()}
                  data-testid={`devices-sort-${header.id}`}
                >
                  {renderTableContent(header.column.columnDef.header, header.getContext())}
                  <SortIcon className="size-3" />
                </button>
              )}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** One row at its virtual position; a click anywhere on it opens the device. */
function DeviceRow({ row, index, start, onOpen }: DeviceRowProps) {
  return (
    <tr
      aria-rowindex={index + 1}
      className="absolute inset-x-0 grid cursor-pointer items-center border-b text-sm hover:bg-accent/50"
      style={{ gridTemplateColumns: GRID, height: ROW_HEIGHT, transform: `translateY(${start}px)` }}
      onClick={() => onOpen(row.original)}
      data-testid={`device-row-${row.original.id}`}
      data-active={row.original.is_active}
    >
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id} className="min-w-0 px-3">
          {cell.column.id === 'name' ? (
            // The name is the row's keyboard target: Enter on it opens the drawer like a click.
            <button
              type="button"
              className="w-full min-w-0 text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {renderTableContent(cell.column.columnDef.cell, cell.getContext())}
            </button>
          ) : (
            renderTableContent(cell.column.columnDef.cell, cell.getContext())
          )}
        </td>
      ))}
    </tr>
  );
}

interface DeviceRowProps {
  row: Row<Device>;
  index: number;
  start: number;
  onOpen: (device: Device) => void;
}

function DevicesTableBody({
  rows,
  virtualizer,
  onOpen,
}: {
  rows: Row<Device>[];
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  onOpen: (device: Device) => void;
}) {
  return (
    <tbody
      className="relative grid"
      style={{ height: virtualizer.getTotalSize() }}
      data-testid="devices-rows"
    >
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        if (!row) return null;
        return <DeviceRow key={row.id} row={row} index={item.index} start={item.start} onOpen={onOpen} />;
      })}
    </tbody>
  );
}

/** The virtualized, sortable device table: only the rows in view are in the DOM. */
export function DevicesTable({
  rows,
  columns,
  sorting,
  onSortingChange,
  onOpen,
  pending,
}: {
  rows: Device[];
  columns: ColumnDef<Device>[];
  sorting: SortingState;
  onSortingChange: OnChangeFn<SortingState>;
  onOpen: (device: Device) => void;
  pending: boolean;
}) {
  const { t } = useTranslation();
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting },
    onSortingChange,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  const tableRows = table.getRowModel().rows;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Rows beyond the view are rendered ahead of scrolling; each row is some 45 elements, and 10 of them on
    // either side made the first screen's DOM 1,200 elements (Lighthouse's dom-size) and its render longer.
    overscan: 3,
  });

  return (
    <Card className="overflow-hidden p-0">
      <div
        ref={scrollRef}
        className="h-[calc(100vh-16rem)] min-h-80 overflow-auto"
        data-testid="devices-scroll"
      >
        <table className="grid min-w-[72rem]" aria-rowcount={tableRows.length} data-testid="devices-table">
          <DevicesTableHead table={table} />
          <DevicesTableBody rows={tableRows} virtualizer={virtualizer} onOpen={onOpen} />
        </table>
        {tableRows.length === 0 && (
          <p className="py-10 text-center text-muted-foreground" data-testid="devices-empty">
            {pending ? t('common.loading') : t('common.no-data')}
          </p>
        )}
      </div>
    </Card>
  );
}
