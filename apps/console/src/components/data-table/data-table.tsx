import type { Row, RowData, Table as TanstackTable } from '@tanstack/react-table';
import { ArrowUpDownIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/utils';
import {
  renderTableContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../ui/table';

declare module '@tanstack/react-table' {
  // biome-ignore lint/correctness/noUnusedVariables: the parameters must match TanStack's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** the column stays at the table's right edge when the table scrolls sideways (row actions) */
    pinRight?: boolean;
  }
}

/** A pinned column's cells: at the right edge, on the card's background, above the scrolled cells. */
const PINNED = 'sticky right-0 z-10 bg-card';

export interface DataTableProps<T> {
  table: TanstackTable<T>;
  testId: string;
  /** data-testid of a row, e.g. `user-row-7`. */
  rowTestId: (row: Row<T>) => string;
  /** Shown in one full-width row when there are no rows (loading or empty). */
  empty: ReactNode;
  /** Makes every row clickable (with a pointer cursor); buttons inside a row stop the event themselves. */
  onRowClick?: (row: Row<T>) => void;
  /** Extra `data-*` attributes of a row, e.g. an alarm's `data-state`. */
  rowAttributes?: (row: Row<T>) => Record<`data-${string}`, string>;
}

/** A TanStack table rendered with the shadcn table parts: sortable headers, one row per record. */
export function DataTable<T>({
  table,
  testId,
  rowTestId,
  empty,
  onRowClick,
  rowAttributes,
}: DataTableProps<T>) {
  const rows = table.getRowModel().rows;
  return (
    <Table data-testid={testId}>
      <TableHeader>
        {table.getHeaderGroups().map((group) => (
          <TableRow key={group.id}>
            {group.headers.map((header) => (
              <TableHead key={header.id} className={cn(header.column.columnDef.meta?.pinRight && PINNED)}>
                {header.column.getCanSort() ? (
                  <button
                    type="button"
                    className="inline-flex items-center gap-1"
                    onClick={header.column.getToggleSortingHandler()}
                  >
                    {renderTableContent(header.column.columnDef.header, header.getContext())}
                    <ArrowUpDownIcon className="size-3" />
                  </button>
                ) : (
                  renderTableContent(header.column.columnDef.header, header.getContext())
                )}
              </TableHead>
            ))}
          </TableRow>
        ))}
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow
            key={row.id}
            data-testid={rowTestId(row)}
            {...rowAttributes?.(row)}
            {...(onRowClick && { onClick: () => onRowClick(row), className: 'cursor-pointer' })}
          >
            {row.getVisibleCells().map((cell) => (
              <TableCell key={cell.id} className={cn(cell.column.columnDef.meta?.pinRight && PINNED)}>
                {renderTableContent(cell.column.columnDef.cell, cell.getContext())}
              </TableCell>
            ))}
          </TableRow>
        ))}
        {rows.length === 0 && (
          <TableRow>
            <TableCell
              colSpan={table.getVisibleLeafColumns().length}
              className="py-8 text-center text-muted-foreground"
            >
              {empty}
            </TableCell>
          </TableRow>
        )}
      </TableBody>
    </Table>
  );
}
