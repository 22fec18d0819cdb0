/**
 * The licensed modules' data of the demo client: farming fields and parcels, parking areas, and the
 * water association with its members and shared meters.
 */
import type { Queryable } from '@iot/db';
import { DEMO_COMPANIES } from './demo-accounts.js';
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
  const tasks: Array<[string, string, string, number, number | undefined, string | null]> = [
    ['Beregnung Acker Ost', 'irrigation', 'planned', 2, fieldIds[0], null],
    ['Bodenprobe Weinberg', 'soil_sampling', 'planned', -2, fieldIds[1], null],
    ['Rebschnitt', 'maintenance', 'in_progress', 0, fieldIds[1], null],
    ['Düngung Winterweizen', 'fertilising', 'done', -5, fieldIds[0], null],
    ['Pflanzenschutz Obstwiese', 'plant_protection', 'abandoned', -3, fieldIds[2], 'Regen angesagt'],
    ['Apfelernte', 'harvest', 'planned', 9, fieldIds[2], null],
  ];
  for (const [title, type, status, offsetDays, fieldId, reason] of tasks) {
    const event = {
      at: new Date(now - 7 * day).toISOString(),
      user_id: user?.id ?? null,
      user_name: user?.name ?? null,
      kind: 'created',
      changes: { title, status: 'planned' },
    };
    await tx.query(
      `INSERT INTO tasks (company_id, title, type, status, abandon_reason, due_at, assigned_user_id, field_id,
                          created_by, completed_at, history)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7, CASE WHEN $4 = 'done' THEN $6::timestamptz END, $9::jsonb)`,
      [
        companyId,
        title,
        type,
        status,
        reason,
        new Date(now + offsetDays * day),
        user?.id ?? null,
        fieldId ?? null,
        JSON.stringify([event]),
      ],
    );
  }
}

export async function seedParking(tx: Queryable, companyId: number, devices: SeededDevice[]): Promise<void> {
  const fixed = devices.filter((d) => d.kind.kind === 'parking').map((d) => d.id);
  const fixId = await insertId(
    tx,
    `INSERT INTO parking_areas (company_id, name, type, capacity, max_parking_minutes, icon, latitude, longitude)
     VALUES ($1, 'Parkplatz Rathaus', 'FIX', $2, 120, 'PS', 48.0421, 7.5771) RETURNING id`,
    [companyId, fixed.length],
  );
  await tx.query('UPDATE devices SET parking_area_id = $1 WHERE id = ANY($2::bigint[])', [fixId, fixed]);
  const camera = devices.filter((d) => d.kind.kind === 'ai_parking').map((d) => d.id);
  const aiId = await insertId(
    tx,
    `INSERT INTO parking_areas (company_id, name, type, capacity, area_size_m2, icon, latitude, longitude)
     VALUES ($1, 'Marktplatz', 'AI', 60, 1800, 'TP', 48.0409, 7.5752) RETURNING id`,
    [companyId],
  );
  await tx.query('UPDATE devices SET parking_area_id = $1 WHERE id = ANY($2::bigint[])', [aiId, camera]);
}

export async function seedWaterAssociation(tx: Queryable, demoDevices: SeededDevice[]): Promise<void> {
  const nwa = DEMO_COMPANIES.waterAssociation.id;
  const member = DEMO_COMPANIES.demo.id;
  await tx.query('INSERT INTO nwa_members (nwa_company_id, company_id, is_admin) VALUES ($1, $2, false)', [
    nwa,
    member,
  ]);
  const meters = demoDevices.filter((d) => d.kind.kind === 'water_meter').slice(0, 2);
  for (const meter of meters) {
    await tx.query(
      `INSERT INTO nwa_shared_devices (nwa_company_id, company_id, device_id, usage)
       VALUES ($1, $2, $3, '{"purpose": "irrigation"}')`,
      [nwa, member, meter.id],
    );
  }
  await tx.query(
    `INSERT INTO nwa_max_flow_rates (nwa_company_id, company_id, max_per_hour, max_per_year)
     VALUES ($1, $2, 12, 40000)`,
    [nwa, member],
  );
  // The second company asks to join: the association's menu shows one open request.
  await tx.query(`INSERT INTO nwa_membership_requests (nwa_company_id, company_id) VALUES ($1, $2)`, [
    nwa,
    DEMO_COMPANIES.other.id,
  ]);
}
