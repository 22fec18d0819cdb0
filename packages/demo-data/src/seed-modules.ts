/**
 * The licensed modules' data of the demo client: farming fields and parcels and parking areas (the water
 * association: seed-water.ts).
 */
import {
  applyParkingReadings,
  type ParkingUplink,
  type Queryable,
  refreshParkingOnTimer,
  saveParkingAlarmActions,
} from '@iot/db';
import { parkingReadingOf } from '@iot/domain';
import { insertId, type SeededDevice } from './seed-rows.js';

// Demo fields around the default map centre (48.041477, 7.576644): [name, devices, plant, soil, west, south,
// width m, height m, parcels [SCHLAGNR, FLIK, m²]]. Each rectangle is drawn as large as its parcels' sum.
const DEMO_FIELDS: Array<{
  name: string;
  devices: string[];
  plant: [string, string, string];
  soil: [string, string, string];
  corner: [number, number];
  widthM: number;
  heightM: number;
  parcels: Array<[string, string, number]>;
}> = [
  {
    name: 'Acker Ost',
    devices: ['Boden Acker Ost', 'Wetterstation Hof'],
    plant: ['winter_wheat', 'Winterweizen', 'Winter wheat'],
    soil: ['uL', 'Schluffiger Lehm', 'Silty loam'],
    corner: [7.5795, 48.0405],
    widthM: 208,
    heightM: 100,
    parcels: [
      ['1021/1', 'DEBWLI0883800010', 12_500],
      ['1021/2', 'DEBWLI0883800011', 8_300],
    ],
  },
  {
    name: 'Weinberg',
    devices: ['Boden Weinberg', 'Blattnässe Rebberg', 'Frostwächter Rebberg'],
    plant: ['grapevine', 'Weinrebe (Spätburgunder)', 'Grapevine (Pinot noir)'],
    soil: ['lS', 'Lehmiger Sand', 'Loamy sand'],
    corner: [7.5715, 48.0362],
    widthM: 105.5,
    heightM: 100,
    parcels: [
      ['877', 'DEBWLI0883800020', 6_100],
      ['878', 'DEBWLI0883800021', 4_450],
    ],
  },
  {
    name: 'Obstwiese',
    devices: ['Boden Obstwiese', 'Frostwächter Obstanlage'],
    // Not in the built-in catalogue: the company's own plant.
    plant: ['apple', 'Apfel', 'Apple'],
    soil: ['uL', 'Schluffiger Lehm', 'Silty loam'],
    corner: [7.545, 48.045],
    widthM: 1_073.8,
    heightM: 1_000,
    parcels: [
      ['1302/4', 'DEBWLI0883800030', 23_800],
      ['1302/5', 'DEBWLI0883800031', 1_050_000],
    ],
  },
];

function rectangle([west, south]: [number, number], widthM: number, heightM: number) {
  const east = west + widthM / (111_320 * Math.cos((south * Math.PI) / 180));
  const north = south + heightM / 111_320;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [west, south],
        [east, south],
        [east, north],
        [west, north],
        [west, south],
      ],
    ],
  };
}

async function catalogueId(
  tx: Queryable,
  table: 'soils' | 'plants',
  companyId: number,
  [code, de, en]: string[],
) {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO ${table} (company_id, code, name, name_en) VALUES ($1, $2, $3, $4)
     ON CONFLICT (company_id, code) DO UPDATE SET name = EXCLUDED.name RETURNING id::int AS id`,
    [companyId, code, de, en],
  );
  return rows[0]!.id;
}

export async function seedFarming(tx: Queryable, companyId: number, devices: SeededDevice[]): Promise<void> {
  const fieldIds: number[] = [];
  for (const field of DEMO_FIELDS) {
    const fieldId = await insertId(
      tx,
      `INSERT INTO farming_fields (company_id, name, plant_id, soil_id, geometry, boundary_area_m2)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING id`,
      [
        companyId,
        field.name,
        await catalogueId(tx, 'plants', companyId, field.plant),
        await catalogueId(tx, 'soils', companyId, field.soil),
        JSON.stringify(rectangle(field.corner, field.widthM, field.heightM)),
        // The rectangle's planar area; the API computes drawn boundaries with @turf/area.
        Math.round(field.widthM * field.heightM),
      ],
    );
    fieldIds.push(fieldId);
    for (const [parcelId, flik, size] of field.parcels) {
      await tx.query(
        `INSERT INTO parcels (company_id, parcel_id, registration_number, size_m2, field_id, valid_from)
         VALUES ($1, $2, $3, $4, $5, '2026-01-01')`,
        [companyId, parcelId, flik, size, fieldId],
      );
    }
    // The field's area is the sum of its parcels (spec section 4).
    await tx.query(
      'UPDATE farming_fields SET size_m2 = (SELECT sum(size_m2) FROM parcels WHERE field_id = $1) WHERE id = $1',
      [fieldId],
    );
    const ids = devices.filter((d) => field.devices.includes(d.kind.names[d.index] ?? '')).map((d) => d.id);
    await tx.query('UPDATE devices SET field_id = $1 WHERE id = ANY($2::bigint[])', [fieldId, ids]);
  }
  // One parcel on no field yet.
  await tx.query(
    `INSERT INTO parcels (company_id, parcel_id, registration_number, size_m2) VALUES ($1, '55', 'DEBWLI0883800040', 950)`,
    [companyId],
  );
  await seedFarmingTasks(tx, companyId, fieldIds);
  await seedDryFieldRule(tx, companyId, devices);
}

/**
 * "Acker Ost zu trocken": below 20 % soil humidity the soil sensor's rule plans an irrigation task on the
 * field it stands on (the farming_task action; one open task at a time), due within a day.
 */
async function seedDryFieldRule(tx: Queryable, companyId: number, devices: SeededDevice[]): Promise<void> {
  const sensor = devices.find((d) => d.kind.names[d.index] === 'Boden Acker Ost');
  if (!sensor) return;
  const ruleId = await insertId(
    tx,
    `INSERT INTO rules (company_id, device_id, name, trigger, data_field, operator, value)
     VALUES ($1, $2, 'Acker Ost zu trocken', 'data', 'soil_humidity', 'lte', 20) RETURNING id`,
    [companyId, sensor.id],
  );
  await tx.query(
    `INSERT INTO rule_actions (company_id, rule_id, position, type, subject, body, settings)
     VALUES ($1, $2, 0, 'farming_task', $3, $4, $5::jsonb)`,
    [
      companyId,
      ruleId,
      'Beregnen: {device} meldet {value} {unit}',
      'Regel {rule} um {time}.',
      JSON.stringify({ task_type: 'irrigation', field_ids: [], due_in_hours: 24, assignee_user_id: null }),
    ],
  );
}

/** A few planner tasks in each state (one of them late), with a history entry each. */
async function seedFarmingTasks(tx: Queryable, companyId: number, fieldIds: number[]): Promise<void> {
  const { rows } = await tx.query<{ id: number; name: string }>(
    `SELECT id::int AS id, name FROM users WHERE company_id = $1 ORDER BY id LIMIT 1`,
    [companyId],
  );
  const user = rows[0] ?? null;
  const day = 24 * 3600_000;
  const now = Date.now();
  const tasks: Array<[string, string, string, number, Array<number | undefined>, string | null]> = [
    ['Beregnung Acker Ost', 'irrigation', 'planned', 2, [fieldIds[0]], null],
    ['Bodenprobe Acker Ost und Weinberg', 'soil_sampling', 'planned', -2, [fieldIds[0], fieldIds[1]], null],
    ['Rebschnitt', 'maintenance', 'in_progress', 0, [fieldIds[1]], null],
    ['Düngung Winterweizen', 'fertilising', 'done', -5, [fieldIds[0]], null],
    ['Pflanzenschutz Obstwiese', 'plant_protection', 'abandoned', -3, [fieldIds[2]], 'Regen angesagt'],
    ['Apfelernte', 'harvest', 'planned', 9, [fieldIds[2]], null],
  ];
  for (const [title, type, status, offsetDays, taskFieldIds, reason] of tasks) {
    const event = {
      at: new Date(now - 7 * day).toISOString(),
      user_id: user?.id ?? null,
      user_name: user?.name ?? null,
      kind: 'created',
      changes: { title, status: 'planned' },
    };
    const inserted = await tx.query<{ id: number }>(
      `INSERT INTO tasks (company_id, title, type, status, abandon_reason, due_at, assigned_user_id,
                          created_by, completed_at, history)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, CASE WHEN $4 = 'done' THEN $6::timestamptz END, $8::jsonb)
       RETURNING id::int AS id`,
      [
        companyId,
        title,
        type,
        status,
        reason,
        new Date(now + offsetDays * day),
        user?.id ?? null,
        JSON.stringify([event]),
      ],
    );
    await tx.query(
      `INSERT INTO task_fields (company_id, task_id, field_id) SELECT $1, $2, unnest($3::bigint[])`,
      [companyId, inserted.rows[0]!.id, taskFieldIds.filter((id) => id !== undefined)],
    );
  }
}

/**
 * The demo's car parks: a FIX car park with twelve labelled bays, an AI area with a counting camera and a
 * temporary car park for an event. The seeded history is replayed through the rules worker's own
 * parking writes (applyParkingReadings), hour by hour, so counts, stays, the occupancy history and the
 * overstay alarm of bay A-03 (never freed) are what the live path would have made of it. Each car park has
 * a polygon for the map; the Rathaus car park's alarm rule writes a system message and mails the
 * operator (the outbox without SMTP) for its parking alarms from now on.
 */
export async function seedParking(
  tx: Queryable,
  companyId: number,
  devices: SeededDevice[],
  now: Date,
): Promise<void> {
  const fixed = devices.filter((d) => d.kind.kind === 'parking');
  const fixId = await insertId(
    tx,
    `INSERT INTO parking_areas (company_id, name, type, capacity, max_parking_minutes, grace_minutes, icon,
                                latitude, longitude, geometry, alert_free_below)
     VALUES ($1, 'Parkplatz Rathaus', 'FIX', $2, 120, 10, 'PS', 48.0421, 7.5771, $3, 1) RETURNING id`,
    [companyId, fixed.length, carParkOutline(48.0421, 7.5771, 0.0003, 0.0005)],
  );
  await assignBays(
    tx,
    companyId,
    fixId,
    fixed.map((d) => ({ id: d.id, label: `A-${String(d.index + 1).padStart(2, '0')}` })),
  );
  const camera = devices.filter((d) => d.kind.kind === 'ai_parking');
  const aiId = await insertId(
    tx,
    `INSERT INTO parking_areas (company_id, name, type, capacity, area_size_m2, icon, latitude, longitude, geometry)
     VALUES ($1, 'Marktplatz', 'AI', 60, 1800, 'PS', 48.0409, 7.5752, $2) RETURNING id`,
    [companyId, carParkOutline(48.0409, 7.5752, 0.0002, 0.0004)],
  );
  await assignBays(
    tx,
    companyId,
    aiId,
    camera.map((d) => ({ id: d.id, label: null })),
  );
  const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  await tx.query(
    `INSERT INTO parking_areas (company_id, name, type, capacity, icon, latitude, longitude, geometry,
                                valid_from, valid_to)
     VALUES ($1, 'Festwiese (Weinfest)', 'AI', 250, 'TP', 48.0452, 7.5718, $2, $3, $4)`,
    [companyId, carParkOutline(48.0452, 7.5718, 0.0005, 0.0008), day(-1), day(5)],
  );
  await replayParkingHistory(
    tx,
    [...fixed, ...camera].map((d) => d.id),
    now,
  );
  const action = {
    recipients: [] as string[],
    cc: [] as string[],
    voiceLanguage: null,
    url: null,
    httpMethod: null,
  };
  const rest = { targetDeviceId: null, command: null, commandParams: {}, settings: {} };
  await saveParkingAlarmActions(tx, companyId, fixId, 'Parkplatz Rathaus', [
    { ...action, ...rest, type: 'system', subject: 'Parkplatz Rathaus', body: '{value}' },
    {
      ...action,
      ...rest,
      type: 'email',
      recipients: ['parking@demo.test'],
      subject: 'Parkalarm {rule}',
      body: '{value} ({device}, {time})',
    },
  ]);
}

/** A GeoJSON rectangle around a point (half extents in degrees), as JSON text. */
function carParkOutline(lat: number, lng: number, dLat: number, dLng: number): string {
  const ring = [
    [lng - dLng, lat - dLat],
    [lng + dLng, lat - dLat],
    [lng + dLng, lat + dLat],
    [lng - dLng, lat + dLat],
    [lng - dLng, lat - dLat],
  ];
  return JSON.stringify({ type: 'Polygon', coordinates: [ring] });
}

async function assignBays(
  tx: Queryable,
  companyId: number,
  areaId: number,
  bays: { id: number; label: string | null }[],
): Promise<void> {
  for (const bay of bays) {
    await tx.query(
      'INSERT INTO parking_bays (device_id, company_id, area_id, label) VALUES ($1, $2, $3, $4)',
      [bay.id, companyId, areaId, bay.label],
    );
    await tx.query('UPDATE devices SET parking_area_id = $1 WHERE id = $2', [areaId, bay.id]);
  }
}

async function replayParkingHistory(tx: Queryable, deviceIds: number[], now: Date): Promise<void> {
  const { rows } = await tx.query<{
    device_id: number;
    company_id: number;
    created_at: Date;
    data: Record<string, unknown>;
  }>(
    `SELECT device_id::int AS device_id, company_id::int AS company_id, created_at, data FROM device_data
      WHERE device_id = ANY($1::bigint[]) ORDER BY created_at`,
    [deviceIds],
  );
  const hour = 3_600_000;
  let chunk: ParkingUplink[] = [];
  let chunkEnd = rows[0] ? Math.floor(rows[0].created_at.getTime() / hour) * hour + hour : 0;
  for (const row of rows) {
    const reading = parkingReadingOf(row.data);
    if (!reading) continue;
    while (row.created_at.getTime() >= chunkEnd) {
      await applyParkingReadings(tx, chunk, chunkEnd);
      chunk = [];
      chunkEnd += hour;
    }
    chunk.push({
      deviceId: row.device_id,
      companyId: row.company_id,
      at: row.created_at.toISOString(),
      reading,
    });
  }
  await applyParkingReadings(tx, chunk, now.getTime());
  await refreshParkingOnTimer(tx, now.getTime());
}
