/**
 * Writes the demo data once: the super admin company (id 1), a demo client with the farming, parking,
 * water association and map modules, a second client (to prove isolation), a water association, their
 * users, about fifty devices of every kind with three days of history, groups, a dashboard, farming fields
 * with parcels and parking areas. Everything goes in one transaction: a failed seed leaves nothing behind.
 */
import type { Db, Queryable } from '@iot/db';
import { hash } from '@node-rs/argon2';
import { DEMO_COMPANIES, DEMO_LOGINS, DEMO_PASSWORD } from './demo-accounts.js';
import { COLD_ROOM_COOLING_KIND, COLD_ROOM_KIND, seedColdRoom } from './demo-cold-room.js';
import { DEMO_FLEET, type DemoDeviceKind, type Reading } from './demo-fleet.js';
import { round, seededRandom } from './random.js';

export interface SeedResult {
  /** false when the data was already there (the seed writes only on first start). */
  seeded: boolean;
  devices: number;
  dataPoints: number;
}

export interface SeedOptions {
  /** End of the generated history; tests pin it. */
  now?: Date;
  /** Days of history per device. */
  historyDays?: number;
}

const MAP_CENTRE = { latitude: 48.041477, longitude: 7.576644 };

async function insertId(tx: Queryable, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(sql, params);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`insert returned no id: ${sql}`);
  return id;
}

async function seedCompanies(tx: Queryable): Promise<void> {
  const de = await tx.query<{ id: number }>(`SELECT id FROM countries WHERE code = 'DE'`);
  const countryId = de.rows[0]?.id ?? null;
  const companies = [
    {
      ...DEMO_COMPANIES.superAdmin,
      modules: ['map_view', 'parking', 'farming', 'water_association', 'external_api', 'paid_messaging'],
      isNwa: false,
    },
    {
      ...DEMO_COMPANIES.demo,
      modules: ['map_view', 'parking', 'farming', 'water_association'],
      isNwa: false,
    },
    { ...DEMO_COMPANIES.other, modules: ['map_view'], isNwa: false },
    { ...DEMO_COMPANIES.waterAssociation, modules: ['map_view', 'water_association'], isNwa: true },
  ];
  for (const c of companies) {
    await tx.query(
      `INSERT INTO companies (id, name, street, street_number, zip, city, country_id, email, modules, is_nwa,
                              latitude, longitude)
       VALUES ($1, $2, 'Hauptstraße', $3, '79100', 'Freiburg im Breisgau', $4, $5, $6, $7, $8, $9)`,
      [
        c.id,
        c.name,
        String(c.id * 7),
        countryId,
        `office${c.id}@demo.test`,
        c.modules,
        c.isNwa,
        MAP_CENTRE.latitude,
        MAP_CENTRE.longitude,
      ],
    );
  }
  // Explicit ids above; move the sequence past them so new companies get fresh ids.
  await tx.query(`SELECT setval(pg_get_serial_sequence('companies', 'id'), (SELECT max(id) FROM companies))`);
}

async function seedUsers(tx: Queryable): Promise<void> {
  for (const login of DEMO_LOGINS) {
    await tx.query(
      `INSERT INTO users (company_id, email, name, password_hash, locale, roles, eula_accepted)
       VALUES ($1, $2, $3, $4, $5, $6, true)`,
      [login.companyId, login.email, login.name, await hash(DEMO_PASSWORD), 'de', login.roles],
    );
  }
}

interface SeededDevice {
  id: number;
  kind: DemoDeviceKind;
  index: number;
}

async function seedDevices(
  tx: Queryable,
  companyId: number,
  fleet: DemoDeviceKind[],
  rnd: () => number,
  serialPrefix: string,
): Promise<SeededDevice[]> {
  const devices: SeededDevice[] = [];
  let n = 0;
  for (const kind of fleet) {
    for (const [index, name] of kind.names.entries()) {
      n += 1;
      const serial = `${serialPrefix}-${String(n).padStart(4, '0')}`;
      const lorawan = !kind.mqtt && (kind.deviceType === null || kind.deviceType.startsWith('srd_'));
      const devEui = lorawan ? `70b3d57ed00${companyId}${String(n).padStart(4, '0')}`.slice(0, 16) : null;
      const id = await insertId(
        tx,
        `INSERT INTO devices (company_id, name, description, device_type, driver_id, serial_number, dev_eui,
                              latitude, longitude, location, state, target_server, sensor_type,
                              mains_powered, device_details)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'ok', 'production', $11, $12, $13)
         RETURNING id`,
        [
          companyId,
          name,
          `Demo ${kind.kind.replace(/_/g, ' ')}`,
          kind.deviceType,
          // Devices of the spec's types decode with their built-in driver; the others send JSON data fields,
          // which ingest takes as they are when a device has no driver.
          kind.deviceType,
          serial,
          devEui,
          round(MAP_CENTRE.latitude + (rnd() - 0.5) * 0.06, 6),
          round(MAP_CENTRE.longitude + (rnd() - 0.5) * 0.09, 6),
          `${kind.kind.replace(/_/g, ' ')} ${index + 1}`,
          kind.sensorType ?? null,
          kind.kind === 'gateway' || kind.kind === 'energy_meter',
          { data_fields: Object.keys(kind.reading(0, seededRandom(1), index)) },
        ],
      );
      devices.push({ id, kind, index });
    }
  }
  return devices;
}

/** Writes the history of one device in one statement and sets its latest values and status columns. */
async function seedHistory(
  tx: Queryable,
  companyId: number,
  device: SeededDevice,
  rnd: () => number,
  now: Date,
  days: number,
  offline: boolean,
): Promise<number> {
  const stepMs = device.kind.intervalMinutes * 60_000;
  // Offline devices fell silent a day and a half ago: stale (over 8 hours) and is_active false.
  const end = offline ? now.getTime() - 36 * 3_600_000 : now.getTime();
  const start = now.getTime() - days * 86_400_000;
  const points: Array<{ created_at: string; data: Reading; lat: number | null; lng: number | null }> = [];
  for (let t = start + Math.floor(rnd() * stepMs); t <= end; t += stepMs) {
    const hour = (t - start) / 3_600_000;
    const data = device.kind.reading(hour, rnd, device.index);
    const lat = typeof data.latitude === 'number' ? data.latitude : null;
    const lng = typeof data.longitude === 'number' ? data.longitude : null;
    points.push({ created_at: new Date(t).toISOString(), data, lat, lng });
  }
  await tx.query(
    `INSERT INTO device_data (device_id, company_id, created_at, data, latitude, longitude)
     SELECT $1, $2, p.created_at, p.data, p.lat, p.lng
     FROM jsonb_to_recordset($3::jsonb) AS p(created_at timestamptz, data jsonb, lat float8, lng float8)`,
    [device.id, companyId, JSON.stringify(points)],
  );
  const last = points.at(-1);
  if (!last) return 0;
  const fieldTimes = Object.fromEntries(Object.keys(last.data).map((f) => [f, last.created_at]));
  const battery = typeof last.data.battery_level === 'number' ? last.data.battery_level : null;
  await tx.query(
    `INSERT INTO device_current (device_id, company_id, data, field_times, latitude, longitude, updated_at,
                                 last_online_at, battery_level, signal_strength, rssi, is_active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10, $11)`,
    [
      device.id,
      companyId,
      last.data,
      fieldTimes,
      last.lat,
      last.lng,
      last.created_at,
      battery,
      2 + Math.floor(rnd() * 4),
      -70 - Math.floor(rnd() * 40),
      !offline,
    ],
  );
  return points.length;
}

async function seedGroups(tx: Queryable, companyId: number, devices: SeededDevice[]): Promise<number[]> {
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

async function seedDashboard(tx: Queryable, companyId: number, devices: SeededDevice[]): Promise<void> {
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
      h: 5,
      settings: { device_ids: climate, data_fields: ['temperature', 'humidity', 'battery_level'] },
    },
    {
      type: 'line_chart',
      title: 'Temperatur',
      x: 6,
      y: 0,
      w: 6,
      h: 5,
      settings: {
        series: climate.slice(0, 20).map((id) => ({ device_id: id, data_field: 'temperature' })),
        range: '24h',
        tab: 'day',
      },
    },
    { type: 'map', title: 'Karte', x: 0, y: 5, w: 12, h: 6, settings: { color_by: 'state', device_ids: [] } },
  ];
  for (const w of widgets) {
    await tx.query(
      `INSERT INTO dashboard_widgets (company_id, dashboard_id, type, title, x, y, w, h, settings)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [companyId, dashboardId, w.type, w.title, w.x, w.y, w.w, w.h, w.settings],
    );
  }
}

async function seedFarming(tx: Queryable, companyId: number, devices: SeededDevice[]): Promise<void> {
  const soilId = await insertId(
    tx,
    `INSERT INTO soils (company_id, name, properties) VALUES ($1, 'Lösslehm', '{"texture": "silt loam"}') RETURNING id`,
    [companyId],
  );
  const plants = ['Winterweizen', 'Spätburgunder', 'Apfel'];
  const fieldDevices: Record<string, string[]> = {
    'Acker Ost': ['Boden Acker Ost'],
    Weinberg: ['Boden Weinberg', 'Blattnässe Rebberg', 'Frostwächter Rebberg'],
    Obstwiese: ['Boden Obstwiese', 'Frostwächter Obstanlage'],
  };
  const parcels: Array<[string, number]> = [
    ['1021/1', 12_500],
    ['1021/2', 8_300],
    ['877', 6_100],
    ['878', 4_450],
    ['1302/4', 23_800],
    ['1302/5', 1_050_000],
    ['55', 950],
  ];
  let p = 0;
  for (const [i, [name, deviceNames]] of Object.entries(fieldDevices).entries()) {
    const plantId = await insertId(tx, 'INSERT INTO plants (company_id, name) VALUES ($1, $2) RETURNING id', [
      companyId,
      plants[i],
    ]);
    const fieldId = await insertId(
      tx,
      'INSERT INTO farming_fields (company_id, name, plant_id, soil_id) VALUES ($1, $2, $3, $4) RETURNING id',
      [companyId, name, plantId, soilId],
    );
    // Two parcels per field; the field's area is the sum of its parcels (spec section 4).
    for (const [parcelId, size] of parcels.slice(p, p + 2)) {
      await tx.query(
        `INSERT INTO parcels (company_id, parcel_id, registration_number, size_m2, field_id)
         VALUES ($1, $2, $3, $4, $5)`,
        [companyId, parcelId, `FR-${parcelId}`, size, fieldId],
      );
    }
    p += 2;
    await tx.query(
      'UPDATE farming_fields SET size_m2 = (SELECT sum(size_m2) FROM parcels WHERE field_id = $1) WHERE id = $1',
      [fieldId],
    );
    const ids = devices.filter((d) => deviceNames.includes(d.kind.names[d.index] ?? '')).map((d) => d.id);
    await tx.query('UPDATE devices SET field_id = $1 WHERE id = ANY($2::bigint[])', [fieldId, ids]);
  }
  // One parcel not assigned to any field yet.
  for (const [parcelId, size] of parcels.slice(p)) {
    await tx.query('INSERT INTO parcels (company_id, parcel_id, size_m2) VALUES ($1, $2, $3)', [
      companyId,
      parcelId,
      size,
    ]);
  }
}

async function seedParking(tx: Queryable, companyId: number, devices: SeededDevice[]): Promise<void> {
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

async function seedWaterAssociation(tx: Queryable, demoDevices: SeededDevice[]): Promise<void> {
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

const OTHER_FLEET_KINDS = ['temperature_humidity', 'distance', 'leak', 'button'];
const WATER_FLEET_KINDS = ['water_meter'];

function pickFleet(kinds: string[], names: (kind: DemoDeviceKind) => string[]): DemoDeviceKind[] {
  return DEMO_FLEET.filter((k) => kinds.includes(k.kind) && k.deviceType !== 'srd_button').map((k) => ({
    ...k,
    names: names(k).slice(0, 2),
  }));
}

export async function seedDemoData(db: Db, options: SeedOptions = {}): Promise<SeedResult> {
  const now = options.now ?? new Date();
  const days = options.historyDays ?? 3;
  return db.transaction(async (tx) => {
    const present = await tx.query('SELECT 1 FROM companies WHERE id = $1', [DEMO_COMPANIES.superAdmin.id]);
    if (present.rows.length > 0) return { seeded: false, devices: 0, dataPoints: 0 };

    const rnd = seededRandom(20261121);
    await seedCompanies(tx);
    await seedUsers(tx);

    const fleets: Array<{ companyId: number; fleet: DemoDeviceKind[]; prefix: string }> = [
      { companyId: DEMO_COMPANIES.demo.id, fleet: DEMO_FLEET, prefix: 'DEMO' },
      {
        companyId: DEMO_COMPANIES.other.id,
        fleet: pickFleet(OTHER_FLEET_KINDS, (k) => k.names.map((n) => `${n} (Other)`)),
        prefix: 'OTHER',
      },
      {
        companyId: DEMO_COMPANIES.waterAssociation.id,
        fleet: pickFleet(WATER_FLEET_KINDS, () => ['Hochbehälter Zulauf', 'Pumpwerk Auslauf']),
        prefix: 'NWA',
      },
    ];
    let deviceCount = 0;
    let dataPoints = 0;
    let demoDevices: SeededDevice[] = [];
    for (const { companyId, fleet, prefix } of fleets) {
      const devices = await seedDevices(tx, companyId, fleet, rnd, prefix);
      for (const [i, device] of devices.entries()) {
        // Every twentieth device has gone silent, so the console shows offline and stale markers.
        dataPoints += await seedHistory(tx, companyId, device, rnd, now, days, i % 20 === 7);
      }
      await seedGroups(tx, companyId, devices);
      await seedDashboard(tx, companyId, devices);
      deviceCount += devices.length;
      if (companyId === DEMO_COMPANIES.demo.id) demoDevices = devices;
      const coldRoom = devices.find((d) => d.kind.kind === COLD_ROOM_KIND.kind);
      const cooling = devices.find((d) => d.kind.kind === COLD_ROOM_COOLING_KIND.kind);
      if (coldRoom && cooling)
        await seedColdRoom(tx, companyId, { coldRoomId: coldRoom.id, coolingId: cooling.id });
    }
    await seedFarming(tx, DEMO_COMPANIES.demo.id, demoDevices);
    await seedParking(tx, DEMO_COMPANIES.demo.id, demoDevices);
    await seedWaterAssociation(tx, demoDevices);
    return { seeded: true, devices: deviceCount, dataPoints };
  });
}
