import { Suspense } from 'react';
import type { Device } from '../../../types/device';
import type { LineChartSettings, Widget } from '../types';
import { LineChartWidget } from './lazy-widgets';
import { MapWidget } from './map-widget';
import { TableWidget } from './table-widget';
import { WidgetCard } from './widget-card';

/** One widget of the grid in its card: a table, a line chart or a map. */
export function DashboardWidget({
  widget,
  editing,
  devices,
  loading,
  onSettled,
  onSettings,
  onRemove,
  onPeriodChange,
}: {
  widget: Widget;
  editing: boolean;
  devices: readonly Device[];
  loading: boolean;
  onSettled: (id: number) => void;
  onSettings: () => void;
  onRemove: () => void;
  onPeriodChange: (period: Pick<LineChartSettings, 'range' | 'tab'>) => void;
}) {
  return (
    <WidgetCard widget={widget} editing={editing} onSettings={onSettings} onRemove={onRemove}>
      {widget.type === 'table' && (
        <TableWidget settings={widget.settings} devices={devices} loading={loading} />
      )}
      {widget.type === 'line_chart' && (
        <Suspense fallback={null}>
          <LineChartWidget
            // A changed period in edit mode is part of the layout that is saved.
            key={editing ? `edit-${widget.id}` : widget.id}
            widgetId={widget.id}
            settings={widget.settings}
            devices={devices}
            onSettled={onSettled}
            {...(editing ? { onPeriodChange } : {})}
          />
        </Suspense>
      )}
      {widget.type === 'map' && (
        <MapWidget widgetId={widget.id} settings={widget.settings} onSettled={onSettled} />
      )}
    </WidgetCard>
  );
}
