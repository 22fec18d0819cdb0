import type { OnChangeFn, SortingState } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { formatSort, parseSort, type SortEntry } from './url-sorting';

/** Filter (`q`) and sorting (`sort`) of a table, kept in the URL search params. */
export function useUrlTableState(defaultSort: SortEntry[]) {
  const [params, setParams] = useSearchParams();
  const filter = params.get('q') ?? '';
  const sortParam = params.get('sort');
  // Parsed once per URL value, so the table sees a stable sorting state between renders.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the default is a constant per table
  const sorting: SortingState = useMemo(() => parseSort(sortParam, defaultSort), [sortParam]);
  const update = (key: string, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const setFilter = (value: string) => update('q', value);
  const setSorting: OnChangeFn<SortingState> = (updater) => {
    const next = typeof updater === 'function' ? updater(sorting) : updater;
    update('sort', formatSort(next));
  };
  return { filter, setFilter, sorting, setSorting };
}
