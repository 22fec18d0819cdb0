/** What a company sees first: its device groups and its dashboard. */
import type { Queryable } from '@iot/db';
import { insertId, type SeededDevice } from './seed-rows.js';

export async function seedGroups(
  tx: Queryable,
  companyId: number,
  devices: SeededDevice[],
): Promise<number[]> {
  const groups: Record<string, string[]> = {
    Klima: ['temperature_humidity', 'frost', 'weather_station'],
    Parken: ['parking', 'ai_parking'],
    Landwirtschaft: ['soil_moisture', 'leaf_moisture', 'frost'],
    Wasser: ['water_meter', 'valve', 'leak', 'distance'],
    Gebäude: ['door', 'motion', 'sound', 'button', 'energy_meter', 'gateway'],
  };
  const ids: number[] = [];
  for (const [name, kinds] of Object.entries(groups)) {
    const groupId = await insertId(tx, 'INSERT INTO groups (company_id, name) VALUES ($1, $2) RETURNING id', [
      companyId,
      name,
    ]);
    ids.push(groupId);
    const members = devices.filter((d) => kinds.includes(d.kind.kind)).map((d) => d.id);
    // A device is in one group; the first group that names its kind wins.
    await tx.query('UPDATE devices SET group_id = $1 WHERE id = ANY($2::bigint[]) AND group_id IS NULL', [
      groupId,
      members,
    ]);
  }
  return ids;
}

export async function seedDashboard(
  tx: Queryable,
  companyId: number,
  devices: SeededDevice[],
): Promise<void> {
  const dashboardId = await insertId(
    tx,
    `INSERT INTO dashboards (company_id, name, position) VALUES ($1, 'Übersicht', 0) RETURNING id`,
    [companyId],
  );
  const climate = devices.filter((d) => d.kind.kind === 'temperature_humidity').map((d) => d.id);
  // Settings in the shapes the API checks and stores (apps/api README, "Groups, dashboards and the map"):
  // a 12-column grid, at most 20 chart series, range 24h|1w|1m|6m|1y with its tab, a map over every device.
  const widgets = [
    {
      type: 'table',
      title: 'Klima',
      x: 0,
      y: 0,
      w: 6,
      h: 9,
      settings: { device_ids: climate, data_fields: ['temperature', 'humidity', 'battery_level'] },
    },
    {
      type: 'line_chart',
      title: 'Temperatur',
      x: 6,
      y: 0,
      w: 6,
      // The console's own size for a new chart: room for the period controls, the plot and its legend.
      h: 9,
      settings: {
        series: climate.slice(0, 20).map((id) => ({ device_id: id, data_field: 'temperature' })),
        range: '24h',
        tab: 'day',
      },
    },
    { type: 'map', title: 'Karte', x: 0, y: 9, w: 12, h: 6, settings: { color_by: 'state', device_ids: [] } },
  ];
  for (const w of widgets) {
    await tx.query(
      `INSERT INTO dashboard_widgets (company_id, dashboard_id, type, title, x, y, w, h, settings)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [companyId, dashboardId, w.type, w.title, w.x, w.y, w.w, w.h, w.settings],
    );
  }
}
