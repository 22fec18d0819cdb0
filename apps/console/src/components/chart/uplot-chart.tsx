import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { localeTag } from '../../lib/format';

/**
 * A small uPlot wrapper: sized to its container (ResizeObserver), destroyed on unmount, times on the x
 * axis and in the legend formatted per UI locale, colours from the theme's CSS variables. A new plot
 * is built when the series layout changes; new data alone is handed over with setData.
 */
export interface ChartSeries {
  label: string;
  /** CSS variable with the colour, default --primary */
  colorVar?: string;
  /** y scale name; a second scale gets its axis on the right */
  scale?: string;
  /** band edge (min or max): no line of its own; the legend still shows its value at the cursor */
  bandEdge?: boolean;
  /** false: no row in the legend (a dashboard widget's band edges, where legend rows are scarce) */
  legend?: false;
  /** value text in the legend */
  format?: (value: number) => string;
}

export interface UplotChartProps {
  data: uPlot.AlignedData;
  series: ChartSeries[];
  /** pairs of series indexes (1-based like uPlot: upper, lower) filled as a band */
  bands?: [number, number][];
  height?: number;
  /**
   * Plot and legend together fill this many pixels (a dashboard widget): the plot takes what the legend
   * leaves, and a long legend scrolls inside its share instead of running out of the widget.
   */
  fitHeight?: number;
  lang: string;
  /** legend label of the time axis */
  timeLabel?: string;
  testId?: string;
}

/** A fitted chart's legend takes at most this share of the height; more series scroll inside it. */
const MAX_LEGEND_SHARE = 0.4;
const MIN_FIT_PLOT_HEIGHT = 60;

function cssColor(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback;
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** The same colour with an alpha channel, for band fills (works for oklch(), rgb() and hex-less names). */
export function withAlpha(color: string, alpha: number): string {
  const m = /^(oklch|rgb|hsl|lab|lch)\((.*)\)$/.exec(color.trim());
  if (!m) return color;
  const inner = m[2]?.split('/')[0]?.trim() ?? '';
  return `${m[1]}(${inner} / ${alpha})`;
}

function timeFormatter(lang: string, spanSeconds: number): (seconds: number) => string {
  const locale = localeTag(lang);
  const options: Intl.DateTimeFormatOptions =
    spanSeconds <= 2 * 86_400
      ? { hour: '2-digit', minute: '2-digit' }
      : spanSeconds <= 120 * 86_400
        ? { day: '2-digit', month: '2-digit' }
        : { month: 'short', year: '2-digit' };
  const f = new Intl.DateTimeFormat(locale, options);
  return (s) => f.format(new Date(s * 1000));
}

function buildOptions(props: UplotChartProps, width: number): uPlot.Options {
  const { series, bands, lang, height = 220 } = props;
  const numbers = new Intl.NumberFormat(localeTag(lang), { maximumFractionDigits: 2 });
  const border = cssColor('--border', '#e5e7eb');
  const muted = cssColor('--muted-foreground', '#6b7280');
  const legendTime = new Intl.DateTimeFormat(localeTag(lang), { dateStyle: 'short', timeStyle: 'short' });
  const scales = [...new Set(series.map((s) => s.scale ?? 'y'))];
  const axis = (scale: string, side: 0 | 1 | 2 | 3): uPlot.Axis => ({
    scale,
    side,
    stroke: muted,
    grid: { stroke: border, width: 1 },
    ticks: { stroke: border, width: 1 },
    size: 56,
    values: (_u, splits) => splits.map((v) => numbers.format(v)),
  });
  return {
    width,
    height,
    scales: { x: { time: true } },
    legend: { show: true },
    cursor: { drag: { x: true, y: false } },
    series: [
      {
        ...(props.timeLabel ? { label: props.timeLabel } : {}),
        value: (_u, v) => (v === null || v === undefined ? '–' : legendTime.format(new Date(v * 1000))),
      },
      ...series.map((s): uPlot.Series => {
        const color = cssColor(s.colorVar ?? '--primary', '#0d9488');
        return {
          label: s.label,
          scale: s.scale ?? 'y',
          ...(s.legend === false ? { class: 'u-no-legend' } : {}),
          stroke: s.bandEdge ? 'transparent' : color,
          width: s.bandEdge ? 0 : 1.5,
          points: { show: false },
          spanGaps: false,
          value: (_u: uPlot, v: number | null) => (v === null ? '–' : (s.format?.(v) ?? numbers.format(v))),
        };
      }),
    ],
    bands: (bands ?? []).map(([upper, lower]) => ({
      series: [upper, lower] as [number, number],
      fill: withAlpha(cssColor(series[upper - 1]?.colorVar ?? '--primary', '#0d9488'), 0.18),
    })),
    axes: [
      {
        stroke: muted,
        grid: { stroke: border, width: 1 },
        ticks: { stroke: border, width: 1 },
        values: (u, splits) => {
          const min = u.scales.x?.min ?? 0;
          const max = u.scales.x?.max ?? 0;
          const format = timeFormatter(lang, max - min);
          return splits.map((s) => format(s));
        },
      },
      ...scales.map((scale, i) => axis(scale, i === 0 ? 3 : 1)),
    ],
  };
}

export function UplotChart(props: UplotChartProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const resizeRef = useRef<(() => void) | null>(null);
  const propsRef = useRef(props);
  propsRef.current = props;
  // The plot is rebuilt only when what its options depend on changes.
  const layoutKey = JSON.stringify([
    props.series.map((s) => [s.label, s.colorVar, s.scale, s.bandEdge]),
    props.bands,
    props.height,
    props.fitHeight === undefined,
    props.lang,
    props.timeLabel,
  ]);

  useEffect(() => {
    const el = containerRef.current;
    if (!el || layoutKey === '') return;
    const plot = new uPlot(
      buildOptions(propsRef.current, Math.max(el.clientWidth, 200)),
      propsRef.current.data,
      el,
    );
    plotRef.current = plot;
    const plotHeight = () => {
      const fit = propsRef.current.fitHeight;
      if (fit === undefined) return propsRef.current.height ?? 220;
      const legend = plot.root.querySelector<HTMLElement>('.u-legend');
      if (legend) legend.style.maxHeight = `${Math.floor(fit * MAX_LEGEND_SHARE)}px`;
      return Math.max(MIN_FIT_PLOT_HEIGHT, fit - (legend?.offsetHeight ?? 0) - 4);
    };
    const resize = () => {
      const width = Math.max(el.clientWidth, 200);
      const height = plotHeight();
      if (width !== plot.width || height !== plot.height) plot.setSize({ width, height });
    };
    resize();
    resizeRef.current = resize;
    const observer = new ResizeObserver(resize);
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
      plotRef.current = null;
      resizeRef.current = null;
    };
  }, [layoutKey]);

  // A widget resized: the plot takes the new height.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the height is read through propsRef
  useEffect(() => {
    resizeRef.current?.();
  }, [props.fitHeight]);

  useEffect(() => {
    plotRef.current?.setData(props.data);
  }, [props.data]);

  return (
    <div
      ref={containerRef}
      className={props.fitHeight === undefined ? 'w-full' : 'uplot-fit w-full'}
      data-testid={props.testId}
      data-series={props.series.length}
    />
  );
}
