import {
  type ColumnDef,
  getCoreRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { useState } from 'react';

/**
 * A table sorted in component state rather than the URL: for pages with several tables, where one
 * shared `sort` parameter would sort them all (useUrlListTable is the one-table-per-page variant).
 */
export function useSortedTable<T>(options: {
  data: T[];
  columns: ColumnDef<T>[];
  initialSort: SortingState;
}) {
  const [sorting, setSorting] = useState<SortingState>(options.initialSort);
  return useReactTable({
    data: options.data,
    columns: options.columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
}
