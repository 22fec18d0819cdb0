import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { type DeviceFilterState, formatDeviceFilter, parseDeviceFilter } from '../device-filters';

/**
 * The device list's filter as the URL holds it (`/devices/:filter?` plus the query), and `apply` to change
 * it. Search is typed locally and written to the URL a moment later, so typing stays fluid with 10k rows.
 */
export function useDeviceListFilter() {
  const { filter: presetSegment } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filter = useMemo(() => parseDeviceFilter(presetSegment, params), [presetSegment, params]);

  const [search, setSearch] = useState(filter.search);
  useEffect(() => setSearch(filter.search), [filter.search]);
  const apply = (next: Partial<DeviceFilterState>) => {
    const { path, search: query } = formatDeviceFilter({ ...filter, ...next }, params);
    void navigate(`${path}${query}`, { replace: true });
  };
  useEffect(() => {
    if (search === filter.search) return;
    const timer = setTimeout(() => {
      const { path, search: query } = formatDeviceFilter({ ...filter, search }, params);
      void navigate(`${path}${query}`, { replace: true });
    }, 250);
    return () => clearTimeout(timer);
  }, [search, filter, params, navigate]);

  return { filter, params, search, setSearch, apply };
}
