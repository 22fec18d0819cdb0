import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { useDevices } from '../../../lib/devices/get-devices';
import type { Widget } from '../types';

// uPlot and the settings forms load with the first chart or the first settings dialog, not with the
// first screen (the budget is 300 kB of gzipped JS).
const loadLineChart = () => import('./line-chart-widget');
export const LineChartWidget = lazy(() => loadLineChart().then((m) => ({ default: m.LineChartWidget })));
const WidgetSettingsForm = lazy(() =>
  import('./widget-settings-form').then((m) => ({ default: m.WidgetSettingsForm })),
);

/** The settings form chooses among every device: the full list, loaded at start-up anyway. */
export function SettingsWithDevices(props: Omit<Parameters<typeof WidgetSettingsForm>[0], 'devices'>) {
  const { t } = useTranslation();
  const devices = useDevices();
  if (!devices.data) return <p className="p-2 text-sm text-muted-foreground">{t('common.loading')}</p>;
  return <WidgetSettingsForm {...props} devices={devices.data} />;
}

/**
 * Starts loading the chunks of these widgets (uPlot for a chart). A map's chunk (MapLibre and deck.gl)
 * loads when the map is about to be visible (LazyDeviceMap), not with the first paint.
 */
export function preloadWidgetChunks(widgets: readonly Widget[]): void {
  if (widgets.some((w) => w.type === 'line_chart')) void loadLineChart();
}
