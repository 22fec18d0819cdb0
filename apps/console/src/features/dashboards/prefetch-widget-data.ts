import { platformInfoQueryOptions } from '../../components/map/use-map-style';
import { deviceDataQueryOptions } from '../../lib/devices/get-device-data';
import { deviceMapQueryOptions, devicesByIdsQueryOptions } from '../../lib/devices/get-devices';
import { periodBounds } from '../../lib/period';
import { queryClient } from '../../lib/query-client';
import type { MapSettings, Widget } from './types';
import { chartMaxPoints, settingsToPeriod } from './widget-layout';

/** The devices the dashboard's tables and charts show (a few, however large the fleet). */
export function shownDeviceIds(widgets: readonly Widget[]): number[] {
  return widgets.flatMap((w) =>
    w.type === 'table'
      ? w.settings.device_ids
      : w.type === 'line_chart'
        ? w.settings.series.map((s) => s.device_id)
        : [],
  );
}

/** The field a map widget is coloured by (null: by state). */
export function mapColorField(settings: MapSettings): string | null {
  return settings.color_by === 'field' && settings.data_field ? settings.data_field : null;
}

/** A chart's period starts at the prefetch's "now" so its queries have the prefetched keys. */
const chartNow = new Map<number, number>();
/** Later than this, a chart starts its period at its own "now" (the prefetched answer is old). */
const CHART_NOW_TTL_MS = 10_000;

/** The "now" a line chart widget's period was prefetched with, if recent. */
export function prefetchedChartNow(widgetId: number): number | undefined {
  const now = chartNow.get(widgetId);
  return now !== undefined && Date.now() - now < CHART_NOW_TTL_MS ? now : undefined;
}

/**
 * Asks for the widgets' data before their components (and the chart's and map's lazy chunks) render, with
 * the very query keys the widgets use: the tables' and charts' devices, each chart's series over its
 * period, each map's lean list and the map style. The route loader calls it with the dashboards' answer.
 */
export function prefetchWidgetData(widgets: readonly Widget[]): void {
  // Maps first: the server answers a tenant's reads one after another, and a large fleet's map list is the
  // slowest of them; the preview draws it while the smaller answers are read.
  for (const w of widgets) {
    if (w.type !== 'map') continue;
    void queryClient.prefetchQuery(platformInfoQueryOptions());
    void queryClient.prefetchQuery(deviceMapQueryOptions(mapColorField(w.settings)));
  }
  const ids = shownDeviceIds(widgets);
  if (ids.length > 0) void queryClient.prefetchQuery(devicesByIdsQueryOptions(ids));
  for (const w of widgets) {
    if (w.type === 'line_chart') {
      // A second prefetch of the same chart (the start-up's, then the route loader's) keeps the first's
      // "now", so it asks for the same keys rather than the same data again.
      const now = prefetchedChartNow(w.id) ?? Date.now();
      const bounds = periodBounds(settingsToPeriod(w.settings), now);
      const maxPoints = chartMaxPoints(w.w, window.innerWidth);
      chartNow.set(w.id, now);
      for (const s of w.settings.series) {
        void queryClient.prefetchQuery(
          deviceDataQueryOptions({ id: s.device_id, fields: [s.data_field], ...bounds, maxPoints }),
        );
      }
    }
  }
}
