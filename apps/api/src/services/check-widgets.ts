/**
 * Checks a dashboard's widget list and returns it normalised (only known settings keys, trimmed titles,
 * ranges as ISO times), or throws 422 with `details.fields` keyed by path, e.g.
 * `widgets.2.settings.range: { key: 'error.unknown' }`. Grid: 12 columns, x >= 0, y >= 0, w and h >= 1,
 * x + w <= 12. Settings per type:
 * - table: `{ device_ids: int[], data_fields: string[] }`
 * - line_chart: `{ series: [{ device_id, data_field }], range: '24h'|'1w'|'1m'|'6m'|'1y' | { tsstart, tsend },
 *   tab?: 'day'|'week'|'month'|'year'|'range' }` (tab 'range' goes with a { tsstart, tsend } range)
 * - map: `{ color_by: 'state'|'field', data_field? (required with field), device_ids? (empty = all) }`
 * Whether the device ids are the company's is checked by the caller in its transaction (`widgetDeviceIds`).
 */
import type { WidgetInput } from '@iot/db';
import { isVirtualFieldName, TIME_RANGES, WIDGET_TYPES } from '@iot/domain';
import { apiError } from '../lib/errors';

export const GRID_COLUMNS = 12;
export const MAX_WIDGETS = 100;
export const MAX_GRID_ROWS = 1000;
export const MAX_WIDGET_HEIGHT = 100;
export const MAX_WIDGET_DEVICES = 500;
export const MAX_WIDGET_FIELDS = 50;
export const MAX_CHART_SERIES = 20;
export const CHART_TABS = ['day', 'week', 'month', 'year', 'range'] as const;
export const MAP_COLOR_BY = ['state', 'field'] as const;

// The field names the data routes accept; a virtual field 'virtual.<uuid>.<name>' may carry any name.
const FIELD_NAME = /^[A-Za-z0-9_.:\- ]{1,200}$/;

export interface WidgetBody {
  type: string;
  title?: string | null;
  x: number;
  y: number;
  w: number;
  h: number;
  settings: Record<string, unknown>;
}

type FieldErrors = Record<string, { key: string; params?: Record<string, unknown> }>;

function isPositiveInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
}

function isFieldName(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 300 && (FIELD_NAME.test(v) || isVirtualFieldName(v));
}

function toTime(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const t = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
    return Number.isFinite(t) ? t : null;
  }
  return null;
}

class Collector {
  readonly fields: FieldErrors = {};
  add(path: string, key: string, params?: Record<string, unknown>) {
    if (!(path in this.fields)) this.fields[path] = params ? { key, params } : { key };
  }
  unknownKeys(path: string, value: Record<string, unknown>, known: readonly string[]) {
    for (const key of Object.keys(value))
      if (!known.includes(key)) this.add(`${path}.${key}`, 'error.unknown');
  }
  deviceIds(path: string, value: unknown, required: boolean): number[] {
    if (value === undefined && !required) return [];
    if (!Array.isArray(value)) {
      this.add(path, value === undefined ? 'error.required' : 'error.unknown');
      return [];
    }
    if (value.length > MAX_WIDGET_DEVICES) this.add(path, 'error.max', { max: MAX_WIDGET_DEVICES });
    if (!value.every(isPositiveInt)) this.add(path, 'error.integer');
    else if (new Set(value).size !== value.length) this.add(path, 'error.duplicate-values');
    return value.filter(isPositiveInt);
  }
  fieldNames(path: string, value: unknown): string[] {
    if (!Array.isArray(value)) {
      this.add(path, value === undefined ? 'error.required' : 'error.unknown');
      return [];
    }
    if (value.length > MAX_WIDGET_FIELDS) this.add(path, 'error.max', { max: MAX_WIDGET_FIELDS });
    if (!value.every(isFieldName)) this.add(path, 'error.unknown');
    else if (new Set(value).size !== value.length) this.add(path, 'error.duplicate-values');
    return value.filter(isFieldName);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkTable(c: Collector, path: string, s: Record<string, unknown>) {
  c.unknownKeys(path, s, ['device_ids', 'data_fields']);
  return {
    device_ids: c.deviceIds(`${path}.device_ids`, s.device_ids, true),
    data_fields: c.fieldNames(`${path}.data_fields`, s.data_fields),
  };
}

function checkRange(c: Collector, path: string, range: unknown): string | { tsstart: string; tsend: string } {
  if (typeof range === 'string') {
    if (!(TIME_RANGES as readonly string[]).includes(range)) c.add(path, 'error.unknown');
    return range;
  }
  if (!isObject(range)) {
    c.add(path, range === undefined ? 'error.required' : 'error.unknown');
    return '24h';
  }
  c.unknownKeys(path, range, ['tsstart', 'tsend']);
  const start = toTime(range.tsstart);
  const end = toTime(range.tsend);
  if (start === null)
    c.add(`${path}.tsstart`, range.tsstart === undefined ? 'error.required' : 'error.unknown');
  if (end === null) c.add(`${path}.tsend`, range.tsend === undefined ? 'error.required' : 'error.unknown');
  if (start !== null && end !== null && start >= end) c.add(`${path}.tsend`, 'error.min', { min: 'tsstart' });
  const iso = (t: number | null) => (t === null ? '' : new Date(t).toISOString());
  return { tsstart: iso(start), tsend: iso(end) };
}

function checkLineChart(c: Collector, path: string, s: Record<string, unknown>) {
  c.unknownKeys(path, s, ['series', 'range', 'tab']);
  const series: { device_id: number; data_field: string }[] = [];
  if (!Array.isArray(s.series))
    c.add(`${path}.series`, s.series === undefined ? 'error.required' : 'error.unknown');
  else {
    if (s.series.length > MAX_CHART_SERIES) c.add(`${path}.series`, 'error.max', { max: MAX_CHART_SERIES });
    for (const [i, entry] of (s.series as unknown[]).entries()) {
      const at = `${path}.series.${i}`;
      if (!isObject(entry)) {
        c.add(at, 'error.unknown');
        continue;
      }
      c.unknownKeys(at, entry, ['device_id', 'data_field']);
      if (!isPositiveInt(entry.device_id)) c.add(`${at}.device_id`, 'error.integer');
      if (!isFieldName(entry.data_field)) {
        c.add(`${at}.data_field`, entry.data_field === undefined ? 'error.required' : 'error.unknown');
      }
      if (isPositiveInt(entry.device_id) && isFieldName(entry.data_field)) {
        series.push({ device_id: entry.device_id, data_field: entry.data_field });
      }
    }
  }
  const range = checkRange(c, `${path}.range`, s.range);
  const out: Record<string, unknown> = { series, range };
  if (s.tab !== undefined) {
    if (typeof s.tab !== 'string' || !(CHART_TABS as readonly string[]).includes(s.tab)) {
      c.add(`${path}.tab`, 'error.unknown');
    } else if ((s.tab === 'range') !== isObject(s.range)) {
      // A custom period and the 'range' tab go together; a preset range belongs to the other tabs.
      c.add(`${path}.tab`, 'error.unknown');
    }
    out.tab = s.tab;
  }
  return out;
}

function checkMap(c: Collector, path: string, s: Record<string, unknown>) {
  c.unknownKeys(path, s, ['color_by', 'data_field', 'device_ids']);
  const out: Record<string, unknown> = { color_by: s.color_by };
  if (typeof s.color_by !== 'string' || !(MAP_COLOR_BY as readonly string[]).includes(s.color_by)) {
    c.add(`${path}.color_by`, s.color_by === undefined ? 'error.required' : 'error.unknown');
  }
  if (s.data_field !== undefined && s.data_field !== null) {
    if (!isFieldName(s.data_field)) c.add(`${path}.data_field`, 'error.unknown');
    out.data_field = s.data_field;
  } else if (s.color_by === 'field') c.add(`${path}.data_field`, 'error.required');
  out.device_ids = c.deviceIds(`${path}.device_ids`, s.device_ids ?? [], false);
  return out;
}

/** The normalised widgets, or 422 `INPUT_ERROR` naming every failing path. */
export function checkWidgets(widgets: readonly WidgetBody[]): WidgetInput[] {
  const c = new Collector();
  if (widgets.length > MAX_WIDGETS) c.add('widgets', 'error.max', { max: MAX_WIDGETS });
  const out = widgets.map((w, i): WidgetInput => {
    const at = `widgets.${i}`;
    if (!(WIDGET_TYPES as readonly string[]).includes(w.type)) c.add(`${at}.type`, 'error.unknown');
    const title = (w.title ?? '').trim();
    if (title.length > 255) c.add(`${at}.title`, 'error.maxlength', { max: 255 });
    if (w.x < 0 || w.x >= GRID_COLUMNS) c.add(`${at}.x`, 'error.range', { min: 0, max: GRID_COLUMNS - 1 });
    if (w.w < 1 || w.w > GRID_COLUMNS) c.add(`${at}.w`, 'error.range', { min: 1, max: GRID_COLUMNS });
    else if (w.x >= 0 && w.x < GRID_COLUMNS && w.x + w.w > GRID_COLUMNS)
      c.add(`${at}.w`, 'error.max', { max: GRID_COLUMNS - w.x });
    if (w.y < 0 || w.y > MAX_GRID_ROWS) c.add(`${at}.y`, 'error.range', { min: 0, max: MAX_GRID_ROWS });
    if (w.h < 1 || w.h > MAX_WIDGET_HEIGHT)
      c.add(`${at}.h`, 'error.range', { min: 1, max: MAX_WIDGET_HEIGHT });
    const path = `${at}.settings`;
    const s = w.settings;
    const settings =
      w.type === 'table'
        ? checkTable(c, path, s)
        : w.type === 'line_chart'
          ? checkLineChart(c, path, s)
          : w.type === 'map'
            ? checkMap(c, path, s)
            : {};
    return { type: w.type, title, x: w.x, y: w.y, w: w.w, h: w.h, settings };
  });
  if (Object.keys(c.fields).length > 0) throw apiError('INPUT_ERROR', { fields: c.fields });
  return out;
}

/** Every device id the widgets name, per path, so a foreign id can be reported where it stands. */
export function widgetDeviceIds(widgets: readonly WidgetInput[]): Map<string, number[]> {
  const byPath = new Map<string, number[]>();
  widgets.forEach((w, i) => {
    const s = w.settings as { device_ids?: number[]; series?: { device_id: number }[] };
    if (s.device_ids && s.device_ids.length > 0) byPath.set(`widgets.${i}.settings.device_ids`, s.device_ids);
    for (const [j, entry] of (s.series ?? []).entries()) {
      byPath.set(`widgets.${i}.settings.series.${j}.device_id`, [entry.device_id]);
    }
  });
  return byPath;
}
