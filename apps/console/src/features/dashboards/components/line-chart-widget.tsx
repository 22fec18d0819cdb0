import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PeriodPicker, usePeriod } from '../../../components/chart/period-picker';
import { UplotChart } from '../../../components/chart/uplot-chart';
import { toChartData, uplotFieldData } from '../../../lib/chart-data';
import { deviceDataQueryOptions } from '../../../lib/devices/get-device-data';
import type { Device } from '../../../types/device';
import { prefetchedChartNow } from '../prefetch-widget-data';
import type { LineChartSettings } from '../types';
import { fieldLabel } from '../widget-fields';
import {
  bandedSeries,
  bandPairs,
  chartMaxPoints,
  periodToSettings,
  settingsToPeriod,
} from '../widget-layout';

// Theme colours that tell lines apart (the theme defines no chart palette).
const COLORS = ['--primary', '--destructive', '--sidebar-accent', '--muted-foreground', '--foreground'];
/** Ranges that end now move forward on this interval, so the chart shows the latest readings. */
export const LIVE_REFRESH_MS = 30_000;

/**
 * One line per (device, field), virtual fields included, over the widget's period (uPlot), each inside the
 * band of its buckets' minimum and maximum when the period holds more rows than the chart has pixels.
 */
export function LineChartWidget({
  widgetId,
  columns,
  settings,
  devices,
  onSettled,
  onPeriodChange,
}: {
  widgetId: number;
  /** the widget's width in grid columns: the chart asks for about a point per pixel */
  columns: number;
  settings: LineChartSettings;
  devices: readonly Device[];
  /** told once every series' first answer is in (or failed) */
  onSettled?: (widgetId: number) => void;
  /** editors keep the chosen period in the widget's settings */
  onPeriodChange?: (settings: Pick<LineChartSettings, 'range' | 'tab'>) => void;
}) {
  const { t, i18n } = useTranslation();
  // The route loader asked for the data already (prefetch-widget-data.ts): the same "now", the same keys.
  const period = usePeriod(settingsToPeriod(settings), prefetchedChartNow(widgetId));
  const { setPeriod } = period;
  // As the prefetch computed it (the same key); a resized window keeps the answer it has.
  const [maxPoints] = useState(() => chartMaxPoints(columns, window.innerWidth));
  const live = period.period.kind === 'last';
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setPeriod(period.period), LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [live, period.period, setPeriod]);

  const results = useQueries({
    // Fresh for the refresh interval, so a prefetched answer is not asked for again on mount.
    queries: settings.series.map((s) => ({
      ...deviceDataQueryOptions({
        id: s.device_id,
        fields: [s.data_field],
        from: period.bounds.from,
        to: period.bounds.to,
        maxPoints,
      }),
      staleTime: LIVE_REFRESH_MS,
    })),
  });
  const names = new Map(devices.map((d) => [d.id, d.name]));
  const lines = settings.series.map((s, i) => ({
    label: `${names.get(s.device_id) ?? `#${s.device_id}`} · ${fieldLabel(s.data_field)}`,
    colorVar: COLORS[i % COLORS.length],
  }));
  // The band edges have no legend rows: the widget's legend has room for the lines only.
  const edge = (kind: string) =>
    lines.map((l) => ({ ...l, label: `${l.label} ${kind}`, bandEdge: true, legend: false as const }));
  const series = [...lines, ...edge('min'), ...edge('max')];
  const answers = results.map((r) => r.data);
  const settled = results.every((r) => r.isFetched);
  useEffect(() => {
    if (settled) onSettled?.(widgetId);
  }, [settled, onSettled, widgetId]);
  // The chart takes the height the widget leaves below the period controls (uPlot needs pixels).
  const areaRef = useRef<HTMLDivElement>(null);
  const [area, setArea] = useState(160);
  useEffect(() => {
    const el = areaRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setArea(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the answers array is rebuilt per render; its items are stable
  const data = useMemo(() => {
    const lines = settings.series.map((s, i) => {
      const answer = answers[i];
      if (!answer) return { x: [], y: [] };
      const [x, y, min, max] = uplotFieldData(toChartData(answer, [s.data_field]), 0);
      return { x: (x ?? []) as number[], y: y ?? [], min, max };
    });
    return bandedSeries(lines);
  }, [settings.series, ...answers]);

  if (settings.series.length === 0) {
    return <p className="p-2 text-sm text-muted-foreground">{t('dashboards.no-series')}</p>;
  }
  return (
    <div
      className="flex h-full flex-col gap-2"
      data-testid={`line-chart-widget-${widgetId}`}
      data-loaded={results.every((r) => r.isSuccess)}
    >
      <PeriodPicker
        state={{
          ...period,
          setPeriod: (next) => {
            setPeriod(next);
            onPeriodChange?.(periodToSettings(next));
          },
        }}
        testId={`widget-${widgetId}-period`}
      />
      <div ref={areaRef} className="min-h-24 flex-1 overflow-hidden">
        <UplotChart
          data={data as never}
          series={series}
          bands={bandPairs(lines.length)}
          fitHeight={Math.max(96, area)}
          lang={i18n.language}
          timeLabel={t('devices.data.time')}
          testId={`widget-${widgetId}-chart`}
        />
      </div>
    </div>
  );
}
