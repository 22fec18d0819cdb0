import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { preloadMapPreview } from '../../../components/map/previewed-device-map';
import { useDevices } from '../../../lib/devices/get-devices';
import { preloadableLazy } from '../../../lib/preloadable-lazy';
import type { Widget } from '../types';

// uPlot and the settings forms load with the first chart or the first settings dialog, not with the
// first screen (the budget is 300 kB of gzipped JS).
const lineChart = preloadableLazy(() => import('./line-chart-widget').then((m) => m.LineChartWidget));
export const LineChartWidget = lineChart.Component;
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
 * Starts loading the chunks of these widgets (uPlot for a chart, the still preview of a map). A map's
 * interactive chunk (MapLibre and deck.gl) loads when the user turns to it (PreviewedDeviceMap).
 */
export function preloadWidgetChunks(widgets: readonly Widget[]): void {
  if (widgets.some((w) => w.type === 'line_chart')) lineChart.preload().catch(() => undefined);
  // The map's still preview (its chunk and base shapes) loads beside the map's devices, not after them.
  if (widgets.some((w) => w.type === 'map')) preloadMapPreview();
}
