/** The bench's companies: one with 10,000 devices and a year of data, one empty (the baseline). */
import { hash } from '@node-rs/argon2';
import type { TestPlatform } from '../../support/test-platform.js';
import { CENTER, PASSWORD, YEAR_ROWS } from './settings.js';

export interface Seeded {
  companyId: number;
  email: string;
  mapWidgetId: number;
}

export async function seedCompany(platform: TestPlatform, name: string, devices: number): Promise<Seeded> {
  const { db } = platform;
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO companies (name, modules) VALUES ($1, '{map_view}') RETURNING id::int AS id`,
    [name],
  );
  const companyId = rows[0]!.id;
  const email = `bench-${companyId}@bench.test`;
  await db.query(
    `INSERT INTO users (company_id, email, name, password_hash, roles, eula_accepted)
     VALUES ($1, $2, 'Bench', $3, '{ROLE_MAINUSER}', true)`,
    [companyId, email, await hash(PASSWORD)],
  );
  let tableIds: number[] = [];
  let chartDevice: number | null = null;
  if (devices > 0) {
    // Spread over about 60 x 40 km around the default centre, states cycling.
    await db.query(
      `INSERT INTO devices (company_id, name, serial_number, state, latitude, longitude)
       SELECT $1, 'Sensor ' || g, 'BENCH' || g, (ARRAY['ok','maintenance','lost','broken','disposed'])[1 + g % 5],
              $3 + ((g * 7919) % 4000) / 10000.0 - 0.2,
              $4 + ((g * 104729) % 8000) / 10000.0 - 0.4
         FROM generate_series(1, $2::int) AS g`,
      [companyId, devices, CENTER.latitude, CENTER.longitude],
    );
    await db.query(
      `INSERT INTO device_current (device_id, company_id, data, field_times, updated_at, last_online_at,
                                   battery_level, is_active)
       SELECT id, company_id, jsonb_build_object('temperature', id % 30, 'humidity', id % 90),
              jsonb_build_object('temperature', now(), 'humidity', now()), now(), now(), id % 101, id % 7 <> 0
         FROM devices WHERE company_id = $1`,
      [companyId],
    );
    const { rows: ids } = await db.query<{ id: number }>(
      'SELECT id::int AS id FROM devices WHERE company_id = $1 ORDER BY id LIMIT 10',
      [companyId],
    );
    tableIds = ids.map((r) => r.id);
    chartDevice = tableIds[0] ?? null;
    const from = Date.now() - YEAR_ROWS * 10 * 60_000;
    for (let i = 0; i < YEAR_ROWS; i += 5000) {
      await db.query(
        `SELECT device_data_store(jsonb_agg(x)) FROM (
         SELECT $1::bigint AS device_id, $2::bigint AS company_id,
                $3::timestamptz + make_interval(mins => 10 * g) AS created_at,
                jsonb_build_object('temperature', 10 + 15 * sin(g / 144.0 * 6.283)) AS data, g::text AS message_id
           FROM generate_series($4::int, $5::int) AS g) x`,
        [chartDevice, companyId, new Date(from).toISOString(), i, Math.min(YEAR_ROWS, i + 5000) - 1],
      );
    }
  }
  const { rows: dash } = await db.query<{ id: number }>(
    `INSERT INTO dashboards (company_id, name, position) VALUES ($1, 'Bench', 0) RETURNING id::int AS id`,
    [companyId],
  );
  const widgets = [
    {
      type: 'table',
      x: 0,
      y: 0,
      w: 6,
      h: 8,
      settings: { device_ids: tableIds, data_fields: ['temperature', 'humidity'] },
    },
    {
      type: 'line_chart',
      x: 6,
      y: 0,
      w: 6,
      h: 8,
      settings: {
        series: chartDevice === null ? [] : [{ device_id: chartDevice, data_field: 'temperature' }],
        range: '1y',
        tab: 'year',
      },
    },
    { type: 'map', x: 0, y: 8, w: 12, h: 10, settings: { color_by: 'state' } },
  ];
  let mapWidgetId = 0;
  for (const w of widgets) {
    const { rows: inserted } = await db.query<{ id: number }>(
      `INSERT INTO dashboard_widgets (company_id, dashboard_id, type, title, x, y, w, h, settings)
       VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8) RETURNING id::int AS id`,
      [companyId, dash[0]!.id, w.type, w.x, w.y, w.w, w.h, w.settings],
    );
    if (w.type === 'map') mapWidgetId = inserted[0]!.id;
  }
  return { companyId, email, mapWidgetId };
}
