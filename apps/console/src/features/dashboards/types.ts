import type { DashboardResponse } from '@iot/contracts';
import type { TimeRange } from '@iot/domain';

/** Dashboards and their widgets as /core/company/dashboards answers them (12-column grid). */
export interface TableSettings {
  device_ids: number[];
  data_fields: string[];
}

export interface ChartSeriesSetting {
  device_id: number;
  data_field: string;
}

export type ChartTab = 'day' | 'week' | 'month' | 'year' | 'range';

export interface LineChartSettings {
  series: ChartSeriesSetting[];
  range: TimeRange | { tsstart: string; tsend: string };
  tab?: ChartTab;
}

export interface MapSettings {
  color_by: 'state' | 'field';
  data_field?: string;
  /** empty or missing: every device of the company */
  device_ids?: number[];
}

interface WidgetBase {
  /** the server's id; a widget added in the editor has a negative one until the layout is saved */
  id: number;
  title: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

export type Widget =
  | (WidgetBase & { type: 'table'; settings: TableSettings })
  | (WidgetBase & { type: 'line_chart'; settings: LineChartSettings })
  | (WidgetBase & { type: 'map'; settings: MapSettings });

/** A dashboard of the API (@iot/contracts) with its widgets' open settings read as the union above. */
export type Dashboard = Pick<DashboardResponse, 'id' | 'name'> &
  Partial<Omit<DashboardResponse, 'id' | 'name' | 'widgets'>> & { widgets: Widget[] };
