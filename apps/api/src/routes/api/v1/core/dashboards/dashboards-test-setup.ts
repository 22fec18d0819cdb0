import type { DbSuite } from '@iot/db/testing';
import { expect } from 'vitest';
import { createDevice } from '../../../../../test/device-fixtures';
import { createTeam } from '../../../../../test/fixtures';
import { useRouteApp } from '../../../../../test/route-suite';

export const BASE = '/api/v1/core/company/dashboards';
export const VIRTUAL = 'virtual.3f2b8c1e-9d4a-4e5b-8f6c-1a2b3c4d5e6f.Taupunkt';

/** The dashboard routes' test app, a company with a dashboard of every widget type, and its stored layout. */
export function useDashboardsSuite(suite: DbSuite) {
  const { signIn } = useRouteApp(suite);

  /** A company, its users, two devices and a dashboard with one widget of each type. */
  async function world() {
    const team = await createTeam(suite.db, { modules: ['map_view'] });
    const d1 = await createDevice(suite.db, team.company.id);
    const d2 = await createDevice(suite.db, team.company.id);
    const layout = [
      widget(
        'table',
        { device_ids: [d1.id, d2.id], data_fields: ['temperature', 'humidity'] },
        { x: 0, w: 6 },
      ),
      widget(
        'line_chart',
        { series: [{ device_id: d1.id, data_field: VIRTUAL }], range: '1w', tab: 'week' },
        { x: 6, w: 6 },
      ),
      widget('map', { color_by: 'state' }, { y: 5, w: 12, h: 6 }),
    ];
    const main = await signIn(team.main.email);
    const created = await main.post(BASE, { name: 'Übersicht', widgets: layout });
    expect(created.status).toBe(200);
    return { team, d1, d2, main, layout, dashboard: created.body.payload };
  }

  function widget(
    type: string,
    settings: Record<string, unknown>,
    at: Partial<Record<'x' | 'y' | 'w' | 'h', number>> = {},
  ) {
    return { type, title: `${type} widget`, x: 0, y: 0, w: 4, h: 5, ...at, settings };
  }

  /** The layout as stored: type, position, size and settings of each widget, in row order. */
  async function storedLayout(dashboardId: number) {
    const { rows } = await suite.db.query(
      `SELECT type, title, x, y, w, h, settings FROM dashboard_widgets WHERE dashboard_id = $1 ORDER BY y, x, id`,
      [dashboardId],
    );
    return rows;
  }
  return { signIn, world, widget, storedLayout };
}
