import { TIME_RANGES, type TimeRange, type WidgetType } from '@iot/domain';
import type { Period } from '../../lib/period';
import type { ChartTab, LineChartSettings, Widget } from './types';

/** The dashboard grid has 12 columns (react-grid-layout); rows are GRID_ROW_HEIGHT pixels high. */
export const GRID_COLUMNS = 12;
export const GRID_ROW_HEIGHT = 40;

/** A chart asks for at most this many points (the API's own default) and at least the smallest step. */
const CHART_POINTS_MAX = 1500;
const CHART_POINTS_STEP = 250;

/**
 * How many points (or buckets, each drawn with its minimum and maximum) a line chart widget `columns`
 * wide asks for: about one per pixel. The widget's share of the viewport is more than its plot gets
 * (the navigation, the margins and the value axis take their part), so rounding it down to whole steps
 * still leaves a point per plot pixel; the steps keep the query key, and the prefetched answer, the same
 * over small changes of the window.
 */
export function chartMaxPoints(columns: number, viewportWidth: number): number {
  const share = (viewportWidth * Math.min(Math.max(1, columns), GRID_COLUMNS)) / GRID_COLUMNS;
  const steps = Math.floor(share / CHART_POINTS_STEP) * CHART_POINTS_STEP;
  return Math.min(CHART_POINTS_MAX, Math.max(CHART_POINTS_STEP, steps));
}

const DEFAULT_SIZE: Record<WidgetType, { w: number; h: number }> = {
  table: { w: 6, h: 7 },
  line_chart: { w: 6, h: 9 },
  map: { w: 12, h: 10 },
};

/** A new widget of a type: placed below everything else, full settings with empty selections. */
export function newWidget(type: WidgetType, existing: readonly Widget[], id: number, title: string): Widget {
  const y = existing.reduce((max, w) => Math.max(max, w.y + w.h), 0);
  const base = { id, title, x: 0, y, ...DEFAULT_SIZE[type] };
  switch (type) {
    case 'table':
      return { ...base, type, settings: { device_ids: [], data_fields: [] } };
    case 'line_chart':
      return { ...base, type, settings: { series: [], range: '24h' } };
    case 'map':
      return { ...base, type, settings: { color_by: 'state' } };
  }
}

/** Positions from the grid applied to the widgets (same ids); x and w stay inside the 12 columns. */
export function applyLayout(
  widgets: readonly Widget[],
  layout: readonly { i: string; x: number; y: number; w: number; h: number }[],
): Widget[] {
  const byId = new Map(layout.map((l) => [l.i, l]));
  return widgets.map((widget) => {
    const l = byId.get(String(widget.id));
    if (!l) return widget;
    const w = Math.min(Math.max(1, l.w), GRID_COLUMNS);
    return {
      ...widget,
      x: Math.min(Math.max(0, l.x), GRID_COLUMNS - w),
      y: Math.max(0, l.y),
      w,
      h: Math.max(1, l.h),
    };
  });
}

function isTimeRange(value: unknown): value is TimeRange {
  return typeof value === 'string' && (TIME_RANGES as readonly string[]).includes(value);
}

/**
 * The API pairs a preset range with the tab it belongs to (24h day, 1w week, 1m month, 6m and 1y year)
 * and a custom range with the 'range' tab. The preset decides the period; browsing calendar periods in a
 * widget is not stored, a calendar tab is saved as its preset.
 */
const TAB_OF_RANGE: Record<TimeRange, ChartTab> = {
  '24h': 'day',
  '1w': 'week',
  '1m': 'month',
  '6m': 'year',
  '1y': 'year',
};
const RANGE_OF_TAB: Record<Exclude<ChartTab, 'range'>, TimeRange> = {
  day: '24h',
  week: '1w',
  month: '1m',
  year: '1y',
};

/** The chart period a widget's settings describe. */
export function settingsToPeriod(settings: Pick<LineChartSettings, 'range' | 'tab'>): Period {
  const { range } = settings;
  if (typeof range === 'object' && range !== null) {
    const from = Date.parse(range.tsstart);
    const to = Date.parse(range.tsend);
    if (Number.isFinite(from) && Number.isFinite(to) && from <= to) return { kind: 'range', from, to };
    return { kind: 'last', span: '24h' };
  }
  return { kind: 'last', span: isTimeRange(range) ? range : '24h' };
}

/** The settings that store a period, each range with its tab. */
export function periodToSettings(period: Period): Pick<LineChartSettings, 'range' | 'tab'> {
  switch (period.kind) {
    case 'last':
      return { range: period.span, tab: TAB_OF_RANGE[period.span] };
    case 'range':
      return {
        range: { tsstart: new Date(period.from).toISOString(), tsend: new Date(period.to).toISOString() },
        tab: 'range',
      };
    default:
      return { range: RANGE_OF_TAB[period.kind], tab: period.kind };
  }
}

/**
 * Several series on one time axis for uPlot: the union of their x values (seconds, ascending) and each
 * series' values at those times. Where a series has no reading at another series' time the value is
 * undefined, which uPlot draws across (the line goes on); a reading that is itself empty stays null, a gap.
 * (With null in both places, four devices reporting at different seconds drew no line at all.)
 */
export function alignSeries(
  series: readonly (readonly [readonly number[], readonly (number | null)[]])[],
): (number | null | undefined)[][] {
  const xs = [...new Set(series.flatMap(([x]) => x))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const columns = series.map(([x, y]) => {
    const column: (number | null | undefined)[] = new Array(xs.length).fill(undefined);
    x.forEach((t, i) => {
      const at = index.get(t);
      if (at !== undefined) column[at] = y[i] ?? null;
    });
    return column;
  });
  return [xs, ...columns];
}

/** One line of a chart widget: times and values, with each bucket's minimum and maximum when downsampled. */
export interface WidgetLine {
  x: readonly number[];
  y: readonly (number | null)[];
  min?: readonly (number | null)[] | undefined;
  max?: readonly (number | null)[] | undefined;
}

/**
 * uPlot's data for a chart widget: the times, every line's values, then every line's minimum and then its
 * maximum (its own values where it has no buckets), so each line is drawn inside the band of its buckets:
 * an average alone would flatten what a bucket of a day holds (a day's swing of temperature, say).
 */
export function bandedSeries(lines: readonly WidgetLine[]): (number | null | undefined)[][] {
  return alignSeries([
    ...lines.map((l) => [l.x, l.y] as const),
    ...lines.map((l) => [l.x, l.min ?? l.y] as const),
    ...lines.map((l) => [l.x, l.max ?? l.y] as const),
  ]);
}

/** The uPlot bands of bandedSeries' layout for `count` lines: (maximum, minimum), 1-based. */
export function bandPairs(count: number): [number, number][] {
  return Array.from({ length: count }, (_, i) => [1 + 2 * count + i, 1 + count + i]);
}
