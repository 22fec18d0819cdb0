import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PeriodPicker, usePeriod } from '../../../components/chart/period-picker';
import { UplotChart } from '../../../components/chart/uplot-chart';
import { toChartData, uplotFieldData } from '../../../lib/chart-data';
import { deviceDataQueryOptions } from '../../../lib/devices/get-device-data';
import type { Device } from '../../../types/device';
import type { LineChartSettings } from '../types';
import { alignSeries, periodToSettings, settingsToPeriod } from '../widget-layout';

// Theme colours that tell lines apart (the theme defines no chart palette).
const COLORS = ['--primary', '--destructive', '--sidebar-accent', '--muted-foreground', '--foreground'];
/** Ranges that end now move forward on this interval, so the chart shows the latest readings. */
export const LIVE_REFRESH_MS = 30_000;

/** One line per (device, field), virtual fields included, over the widget's period (uPlot). */
export function LineChartWidget({
  widgetId,
  settings,
  devices,
  height,
  onPeriodChange,
}: {
  widgetId: number;
  settings: LineChartSettings;
  devices: readonly Device[];
  height: number;
  /** editors keep the chosen period in the widget's settings */
  onPeriodChange?: (settings: Pick<LineChartSettings, 'range' | 'tab'>) => void;
}) {
  const { t, i18n } = useTranslation();
  const period = usePeriod(settingsToPeriod(settings, Date.now()));
  const { setPeriod } = period;
  const live = period.period.kind === 'last';
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setPeriod(period.period), LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [live, period.period, setPeriod]);

  const results = useQueries({
    queries: settings.series.map((s) =>
      deviceDataQueryOptions({
        id: s.device_id,
        fields: [s.data_field],
        from: period.bounds.from,
        to: period.bounds.to,
      }),
    ),
  });
  const names = new Map(devices.map((d) => [d.id, d.name]));
  const series = settings.series.map((s, i) => ({
    label: `${names.get(s.device_id) ?? `#${s.device_id}`} · ${fieldLabel(s.data_field)}`,
    colorVar: COLORS[i % COLORS.length],
  }));
  const answers = results.map((r) => r.data);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the answers array is rebuilt per render; its items are stable
  const data = useMemo(() => {
    const lines = settings.series.map((s, i) => {
      const answer = answers[i];
      if (!answer) return [[], []] as const;
      const [x, y] = uplotFieldData(toChartData(answer, [s.data_field]), 0);
      return [(x ?? []) as number[], y ?? []] as const;
    });
    return alignSeries(lines);
  }, [settings.series, ...answers]);

  if (settings.series.length === 0) {
    return <p className="p-2 text-sm text-muted-foreground">{t('dashboards.no-series')}</p>;
  }
  return (
    <div className="flex flex-col gap-2" data-testid={`line-chart-widget-${widgetId}`}>
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
      <UplotChart
        data={data as never}
        series={series}
        height={Math.max(120, height)}
        lang={i18n.language}
        timeLabel={t('devices.data.time')}
        testId={`widget-${widgetId}-chart`}
      />
    </div>
  );
}

/** A virtual field 'virtual.<uuid>.<name>' shows its name. */
export function fieldLabel(field: string): string {
  const m = /^virtual\.[^.]+\.(.+)$/.exec(field);
  return m?.[1] ?? field;
}
