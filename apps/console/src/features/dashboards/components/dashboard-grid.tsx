import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import type { ReactNode } from 'react';
import type { Widget } from '../types';
import { GRID_COLUMNS, GRID_ROW_HEIGHT } from '../widget-layout';

/** The 12-column widget grid; widgets move (by their handle) and resize only while editing. */
export function DashboardGrid({
  widgets,
  editing,
  onLayoutChange,
  renderWidget,
}: {
  widgets: readonly Widget[];
  editing: boolean;
  onLayoutChange: (layout: Layout) => void;
  renderWidget: (widget: Widget) => ReactNode;
}) {
  const { width, containerRef, mounted } = useContainerWidth();
  const layout = widgets.map((w) => ({ i: String(w.id), x: w.x, y: w.y, w: w.w, h: w.h, minW: 2, minH: 3 }));
  return (
    <div ref={containerRef} data-testid="dashboard-grid" data-editing={editing}>
      {mounted && (
        <ReactGridLayout
          layout={layout}
          width={width}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: GRID_ROW_HEIGHT, margin: [12, 12] }}
          dragConfig={{ enabled: editing, handle: '.widget-drag-handle' }}
          resizeConfig={{ enabled: editing, handles: ['se'] }}
          onLayoutChange={(next) => editing && onLayoutChange(next)}
        >
          {widgets.map((w) => (
            <div
              key={String(w.id)}
              data-testid={`widget-${w.id}`}
              data-type={w.type}
              data-grid-pos={`${w.x},${w.y},${w.w},${w.h}`}
            >
              {renderWidget(w)}
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}
