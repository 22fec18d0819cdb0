import ReactGridLayout, { type Layout, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { type ReactNode, useRef } from 'react';
import type { Widget } from '../types';
import { GRID_COLUMNS, GRID_ROW_HEIGHT } from '../widget-layout';

/** Narrower than this (a phone), the widgets stack in one column at full width instead of the grid. */
const STACK_BELOW_PX = 640;
const GRID_MARGIN = 12;

/** A widget's height in the grid, in pixels (rows and the margins between them). */
function gridHeight(h: number): number {
  return h * GRID_ROW_HEIGHT + (h - 1) * GRID_MARGIN;
}

/**
 * The 12-column widget grid; widgets move (by their handle) and resize only while editing. On a phone the
 * widgets stack, in the grid's reading order (top to bottom, left to right), each as high as in the grid.
 */
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
  // Measured before the widgets mount: at the hook's default width (1280 px) they mounted once too wide
  // and then slid to the real one (the items' 200 ms transition), so the map preview drew 10,000 devices
  // at two or three sizes, and at phone width every widget mounted in the grid and again in the stack.
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  // A hidden grid measures 0 px wide: it keeps the layout it had, since switching between the grid and the
  // stack mounts every widget anew (charts and maps start over).
  const stackedRef = useRef(false);
  if (mounted && width > 0) stackedRef.current = width < STACK_BELOW_PX;
  const stacked = mounted && stackedRef.current;
  const layout = widgets.map((w) => ({ i: String(w.id), x: w.x, y: w.y, w: w.w, h: w.h, minW: 2, minH: 3 }));
  return (
    <div
      ref={containerRef}
      data-testid="dashboard-grid"
      data-editing={editing}
      data-layout={stacked ? 'stacked' : 'grid'}
    >
      {stacked && (
        <div className="flex flex-col" style={{ gap: GRID_MARGIN }}>
          {[...widgets]
            .sort((a, b) => a.y - b.y || a.x - b.x)
            .map((w) => (
              <div
                key={String(w.id)}
                data-testid={`widget-${w.id}`}
                data-type={w.type}
                data-grid-pos={`${w.x},${w.y},${w.w},${w.h}`}
                style={{ height: gridHeight(w.h) }}
              >
                {renderWidget(w)}
              </div>
            ))}
        </div>
      )}
      {mounted && !stacked && (
        <ReactGridLayout
          layout={layout}
          width={width}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: GRID_ROW_HEIGHT, margin: [GRID_MARGIN, GRID_MARGIN] }}
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
