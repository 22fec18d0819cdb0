/**
 * The licensed modules' data of the demo client: farming fields and parcels and parking areas (the water
 * association: seed-water.ts).
 */
import { applyParkingReadings, type ParkingUplink, type Queryable, refreshParkingOnTimer } from '@iot/db';
import { parkingReadingOf } from '@iot/domain';
import { insertId, type SeededDevice } from './seed-rows.js';

export async function seedFarming(tx: Queryable, companyId: number, devices: SeededDevice[]): Promise<void> {
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

/**
 * The demo's car parks: a FIX car park with twelve labelled bays, an AI area with a counting camera and a
 * temporary car park for an event. The seeded history is replayed through the rules worker's own
 * parking writes (applyParkingReadings), hour by hour, so counts, stays, the occupancy history and the
 * overstay alarm of bay A-03 (never freed) are what the live path would have made of it.
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
                                latitude, longitude, alert_free_below)
     VALUES ($1, 'Parkplatz Rathaus', 'FIX', $2, 120, 10, 'PS', 48.0421, 7.5771, 1) RETURNING id`,
    [companyId, fixed.length],
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
    `INSERT INTO parking_areas (company_id, name, type, capacity, area_size_m2, icon, latitude, longitude)
     VALUES ($1, 'Marktplatz', 'AI', 60, 1800, 'PS', 48.0409, 7.5752) RETURNING id`,
    [companyId],
  );
  await assignBays(
    tx,
    companyId,
    aiId,
    camera.map((d) => ({ id: d.id, label: null })),
  );
  const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  await tx.query(
    `INSERT INTO parking_areas (company_id, name, type, capacity, icon, latitude, longitude, valid_from, valid_to)
     VALUES ($1, 'Festwiese (Weinfest)', 'AI', 250, 'TP', 48.0452, 7.5718, $2, $3)`,
    [companyId, day(-1), day(5)],
  );
  await replayParkingHistory(
    tx,
    [...fixed, ...camera].map((d) => d.id),
    now,
  );
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
