import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { devicesByIdsQueryOptions } from '../../../lib/devices/get-devices';
import { releaseStartupDevices } from '../../../lib/startup-gate';
import { shownDeviceIds } from '../prefetch-widget-data';
import type { Widget } from '../types';
import { preloadWidgetChunks } from './lazy-widgets';

/** Devices (and so the tables' latest values) refresh on this interval without reloading. */
const LIVE_REFRESH_MS = 30_000;

/**
 * The devices the shown widgets need: tables and charts get their few devices, the map its own lean list;
 * latest values refresh without reloading the page. Also starts the map and chart chunks with the
 * dashboards' answer, beside the widgets' data (the route loader does the same for the first dashboard
 * before the shell renders).
 */
export function useShownDevices(widgets: readonly Widget[]) {
  const shownIds = useMemo(() => shownDeviceIds(widgets), [widgets]);
  const shown = useQuery({ ...devicesByIdsQueryOptions(shownIds), refetchInterval: LIVE_REFRESH_MS });
  useEffect(() => preloadWidgetChunks(widgets), [widgets]);
  return {
    devices: shown.data ?? [],
    loading: shownIds.length > 0 && shown.isPending,
    settled: shownIds.length === 0 || shown.isFetched,
  };
}

/**
 * The start-up device list waits (route loader) until every widget of the first dashboard has its data
 * (a map: drawn with its devices, see MapWidget). Returns what a chart or map calls once it has its data.
 */
export function useStartupRelease({
  dashboardsFetched,
  tablesSettled,
  widgets,
}: {
  dashboardsFetched: boolean;
  tablesSettled: boolean;
  widgets: readonly Widget[];
}) {
  const [settled, setSettled] = useState<ReadonlySet<number>>(() => new Set());
  const markSettled = useCallback(
    (id: number) => setSettled((prev) => (prev.has(id) ? prev : new Set(prev).add(id))),
    [],
  );
  const firstScreenSettled =
    dashboardsFetched && tablesSettled && widgets.every((w) => w.type === 'table' || settled.has(w.id));
  useEffect(() => {
    if (firstScreenSettled) releaseStartupDevices();
  }, [firstScreenSettled]);
  useEffect(() => releaseStartupDevices, []);
  return markSettled;
}
