import {
  type ColumnDef,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
} from '@tanstack/react-table';
import type { SortEntry } from '../../lib/url-sorting';
import { useUrlTableState } from '../../lib/use-url-table-state';

/**
 * A list table whose text filter and sorting live in the URL (`q`, `sort`), so a reload or a shared link
 * shows the same rows: the TanStack table plus the filter value and its setter for the search input.
 */
export function useUrlListTable<T>(options: {
  data: T[] | undefined;
  columns: ColumnDef<T>[];
  defaultSort: SortEntry[];
}) {
  const { filter, setFilter, sorting, setSorting } = useUrlTableState(options.defaultSort);
  const table = useReactTable({
    data: options.data ?? [],
    columns: options.columns,
    state: { sorting, globalFilter: filter },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  return { table, filter, setFilter };
}
