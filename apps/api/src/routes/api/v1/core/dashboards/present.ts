import type { DashboardRecord } from '@iot/db';

export function presentDashboard(d: DashboardRecord) {
  return {
    id: d.id,
    name: d.name,
    position: d.position,
    created_by: d.createdBy,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
    widgets: d.widgets,
  };
}
