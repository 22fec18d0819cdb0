import { LockIcon } from 'lucide-react';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../lib/auth';
import { hasModule } from '../../../lib/guards';
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
  const { t } = useTranslation();
  const mapView = hasModule(useCurrentUser(), 'map_view');
  const lockedMap = widget.type === 'map' && !mapView;
  // A locked map draws nothing: it counts as settled at once for the dashboard's readiness.
  useEffect(() => {
    if (lockedMap) onSettled(widget.id);
  }, [lockedMap, onSettled, widget.id]);
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
            columns={widget.w}
            settings={widget.settings}
            devices={devices}
            onSettled={onSettled}
            {...(editing ? { onPeriodChange } : {})}
          />
        </Suspense>
      )}
      {widget.type === 'map' &&
        (mapView ? (
          <MapWidget widgetId={widget.id} settings={widget.settings} onSettled={onSettled} />
        ) : (
          // Without the map view module the widget stays, locked, and loads nothing (issue #27).
          <p
            className="flex h-full items-center justify-center gap-2 text-sm text-muted-foreground"
            data-testid={`widget-locked-${widget.id}`}
          >
            <LockIcon className="size-4" />
            {t('dashboards.locked-map')}
          </p>
        ))}
    </WidgetCard>
  );
}
