/**
 * The licensed modules' data of the demo client: farming fields and parcels and parking areas (the water
 * association: seed-water.ts).
 */
import type { Queryable } from '@iot/db';
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
