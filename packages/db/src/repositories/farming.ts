/**
 * Farming fields, parcels, the company's soils and plants, and which devices stand on a field
 * (devices.field_id: a device is on at most one field). Every statement names the company. A field's
 * count_parcels and size_m2 are summed from its parcels on read (spec section 4: the area is the sum of the
 * parcels' size_m2); the stored farming_fields.size_m2 is refreshed in the same transaction by every
 * write that moves parcels, for readers of the table.
 */
import type { Queryable } from '../db';
import { jsonParam } from './json-param';

export interface FieldParcelRef {
  id: number;
  parcel_id: string;
  registration_number: string;
  size_m2: number;
}

export interface FarmingFieldRecord {
  id: number;
  companyId: number;
  name: string;
  soilCode: string | null;
  plantCode: string | null;
  boundary: unknown | null;
  boundaryAreaM2: number | null;
  deviceIds: number[];
  parcels: FieldParcelRef[];
  sizeM2: number;
  createdAt: Date;
  updatedAt: Date;
}

interface FieldRow {
  id: number;
  company_id: number;
  name: string;
  soil_code: string | null;
  plant_code: string | null;
  boundary: unknown | null;
  boundary_area_m2: number | null;
  device_ids: number[] | null;
  parcels: FieldParcelRef[] | null;
  size_m2: number | null;
  created_at: Date;
  updated_at: Date;
}

// Devices and parcels come from grouped subqueries (one statement per list, not one per field).
const SELECT_FIELDS = `SELECT f.id::int AS id, f.company_id::int AS company_id, f.name, so.code AS soil_code,
    pl.code AS plant_code, f.geometry AS boundary, f.boundary_area_m2, coalesce(d.device_ids, '{}') AS device_ids,
    coalesce(p.parcels, '[]'::jsonb) AS parcels, coalesce(p.size_m2, 0)::float8 AS size_m2,
    f.created_at, f.updated_at
  FROM farming_fields f
  LEFT JOIN soils so ON so.id = f.soil_id AND so.company_id = $1
  LEFT JOIN plants pl ON pl.id = f.plant_id AND pl.company_id = $1
  LEFT JOIN (
    SELECT field_id, array_agg(id::int ORDER BY id) AS device_ids FROM devices
     WHERE company_id = $1 AND field_id IS NOT NULL GROUP BY field_id
  ) d ON d.field_id = f.id
  LEFT JOIN (
    SELECT field_id, sum(size_m2) AS size_m2,
           jsonb_agg(jsonb_build_object('id', id, 'parcel_id', parcel_id,
             'registration_number', coalesce(registration_number, ''), 'size_m2', size_m2) ORDER BY parcel_id, id) AS parcels
      FROM parcels WHERE company_id = $1 AND field_id IS NOT NULL GROUP BY field_id
  ) p ON p.field_id = f.id
  WHERE f.company_id = $1`;

function toField(row: FieldRow): FarmingFieldRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    soilCode: row.soil_code,
    plantCode: row.plant_code,
    boundary: row.boundary,
    boundaryAreaM2: row.boundary_area_m2,
    deviceIds: row.device_ids ?? [],
    parcels: (row.parcels ?? []).map((p) => ({ ...p, size_m2: Number(p.size_m2) })),
    sizeM2: Number(row.size_m2 ?? 0),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Serialises one company's farming writes until the transaction ends (assignments move rows between fields). */
export async function lockCompanyFarming(q: Queryable, companyId: number): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(4524, $1::int)', [companyId]);
}

export async function listFarmingFields(q: Queryable, companyId: number): Promise<FarmingFieldRecord[]> {
  const { rows } = await q.query<FieldRow>(`${SELECT_FIELDS} ORDER BY lower(f.name), f.id`, [companyId]);
  return rows.map(toField);
}

export async function findFarmingField(
  q: Queryable,
  companyId: number,
  id: number,
): Promise<FarmingFieldRecord | null> {
  const { rows } = await q.query<FieldRow>(`${SELECT_FIELDS} AND f.id = $2`, [companyId, id]);
  return rows[0] ? toField(rows[0]) : null;
}

export interface FarmingFieldValues {
  name?: string;
  /** Row ids in the company's soils and plants tables. */
  soilId?: number | null;
  plantId?: number | null;
  /** With its computed area; undefined leaves both unchanged. */
  boundary?: { geometry: unknown; areaM2: number } | null;
}

export async function insertFarmingField(
  q: Queryable,
  companyId: number,
  values: FarmingFieldValues & { name: string },
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO farming_fields (company_id, name, soil_id, plant_id, geometry, boundary_area_m2)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING id::int AS id`,
    [
      companyId,
      values.name,
      values.soilId ?? null,
      values.plantId ?? null,
      values.boundary ? jsonParam(values.boundary.geometry) : null,
      values.boundary?.areaM2 ?? null,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into farming_fields returned no row');
  return id;
}

/** Changes the given columns (undefined: unchanged); false when the company has no such field. */
export async function updateFarmingField(
  q: Queryable,
  companyId: number,
  id: number,
  values: FarmingFieldValues,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE farming_fields SET
        name = CASE WHEN $3 THEN $4 ELSE name END,
        soil_id = CASE WHEN $5 THEN $6::bigint ELSE soil_id END,
        plant_id = CASE WHEN $7 THEN $8::bigint ELSE plant_id END,
        geometry = CASE WHEN $9 THEN $10::jsonb ELSE geometry END,
        boundary_area_m2 = CASE WHEN $9 THEN $11::float8 ELSE boundary_area_m2 END,
        updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [
      companyId,
      id,
      values.name !== undefined,
      values.name ?? null,
      values.soilId !== undefined,
      values.soilId ?? null,
      values.plantId !== undefined,
      values.plantId ?? null,
      values.boundary !== undefined,
      values.boundary ? jsonParam(values.boundary.geometry) : null,
      values.boundary?.areaM2 ?? null,
    ],
  );
  return rowCount > 0;
}

/** Deletes the field; its parcels and devices stay, unassigned (foreign keys ON DELETE SET NULL). */
export async function deleteFarmingField(q: Queryable, companyId: number, id: number): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM farming_fields WHERE company_id = $1 AND id = $2', [
    companyId,
    id,
  ]);
  return rowCount > 0;
}

/**
 * Makes `parcelIds` exactly the field's parcels: they leave any other field, the field's other parcels
 * are unassigned. The caller has checked every id is the company's.
 */
export async function setFieldParcels(
  q: Queryable,
  companyId: number,
  fieldId: number,
  parcelIds: readonly number[],
): Promise<void> {
  await q.query(
    `UPDATE parcels SET field_id = NULL, updated_at = now()
      WHERE company_id = $1 AND field_id = $2 AND NOT (id = ANY($3::bigint[]))`,
    [companyId, fieldId, parcelIds],
  );
  if (parcelIds.length > 0) {
    await q.query(
      `UPDATE parcels SET field_id = $2, updated_at = now()
        WHERE company_id = $1 AND id = ANY($3::bigint[]) AND field_id IS DISTINCT FROM $2`,
      [companyId, fieldId, parcelIds],
    );
  }
  await refreshFieldSizes(q, companyId);
}

/** Writes every field's stored size_m2 as the sum of its parcels (spec section 4). */
export async function refreshFieldSizes(q: Queryable, companyId: number): Promise<void> {
  await q.query(
    `UPDATE farming_fields f SET size_m2 = s.size_m2, updated_at = now()
       FROM (SELECT f2.id, coalesce(sum(p.size_m2), 0) AS size_m2 FROM farming_fields f2
               LEFT JOIN parcels p ON p.field_id = f2.id AND p.company_id = $1
              WHERE f2.company_id = $1 GROUP BY f2.id) s
      WHERE f.id = s.id AND f.company_id = $1 AND f.size_m2 IS DISTINCT FROM s.size_m2`,
    [companyId],
  );
}

/** Makes `deviceIds` exactly the field's devices; a listed device leaves any other field (one field each). */
export async function setFieldDevices(
  q: Queryable,
  companyId: number,
  fieldId: number,
  deviceIds: readonly number[],
): Promise<void> {
  await q.query(
    `UPDATE devices SET field_id = NULL, updated_at = now()
      WHERE company_id = $1 AND field_id = $2 AND NOT (id = ANY($3::bigint[]))`,
    [companyId, fieldId, deviceIds],
  );
  if (deviceIds.length === 0) return;
  await q.query(
    `UPDATE devices SET field_id = $2, updated_at = now()
      WHERE company_id = $1 AND id = ANY($3::bigint[]) AND field_id IS DISTINCT FROM $2`,
    [companyId, fieldId, deviceIds],
  );
}

export interface FieldDeviceRecord {
  id: number;
  name: string;
  deviceType: string | null;
  fieldId: number | null;
  latitude: number | null;
  longitude: number | null;
}

/** The company's devices with the field each stands on; `fieldId` narrows to one field's devices. */
export async function listFieldDevices(
  q: Queryable,
  companyId: number,
  fieldId: number | null,
): Promise<FieldDeviceRecord[]> {
  const { rows } = await q.query<FieldDeviceRecord>(
    `SELECT d.id::int AS id, d.name, d.device_type AS "deviceType", d.field_id::int AS "fieldId",
            d.latitude::float8 AS latitude, d.longitude::float8 AS longitude
       FROM devices d
      WHERE d.company_id = $1 AND ($2::bigint IS NULL OR d.field_id = $2)
      ORDER BY lower(d.name), d.id`,
    [companyId, fieldId],
  );
  return rows;
}

// Parcels

export interface ParcelRecord {
  id: number;
  parcelId: string;
  registrationNumber: string;
  sizeM2: number;
  fieldId: number | null;
  fieldName: string | null;
  boundary: unknown | null;
  validFrom: string | null;
  validTo: string | null;
}

const SELECT_PARCELS = `SELECT p.id::int AS id, p.parcel_id AS "parcelId",
    coalesce(p.registration_number, '') AS "registrationNumber", p.size_m2::float8 AS "sizeM2",
    p.field_id::int AS "fieldId", f.name AS "fieldName", p.boundary,
    p.valid_from::text AS "validFrom", p.valid_to::text AS "validTo"
  FROM parcels p LEFT JOIN farming_fields f ON f.id = p.field_id AND f.company_id = $1
  WHERE p.company_id = $1`;

export async function listParcels(q: Queryable, companyId: number): Promise<ParcelRecord[]> {
  const { rows } = await q.query<ParcelRecord>(`${SELECT_PARCELS} ORDER BY p.parcel_id, p.id`, [companyId]);
  return rows;
}

export async function findParcel(q: Queryable, companyId: number, id: number): Promise<ParcelRecord | null> {
  const { rows } = await q.query<ParcelRecord>(`${SELECT_PARCELS} AND p.id = $2`, [companyId, id]);
  return rows[0] ?? null;
}

/** Of `ids`, those that are parcels of the company. */
export async function ownedParcelIds(
  q: Queryable,
  companyId: number,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query<{ id: number }>(
    'SELECT id::int AS id FROM parcels WHERE company_id = $1 AND id = ANY($2::bigint[]) ORDER BY id',
    [companyId, ids],
  );
  return rows.map((r) => r.id);
}

export interface ParcelValues {
  parcelId?: string;
  registrationNumber?: string;
  sizeM2?: number;
  boundary?: unknown | null;
  validFrom?: string | null;
  validTo?: string | null;
}

export async function insertParcel(
  q: Queryable,
  companyId: number,
  v: Required<Pick<ParcelValues, 'parcelId' | 'sizeM2'>> & ParcelValues,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO parcels (company_id, parcel_id, registration_number, size_m2, boundary, valid_from, valid_to)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::date, $7::date) RETURNING id::int AS id`,
    [
      companyId,
      v.parcelId,
      v.registrationNumber ?? '',
      v.sizeM2,
      v.boundary == null ? null : jsonParam(v.boundary),
      v.validFrom ?? null,
      v.validTo ?? null,
    ],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('insert into parcels returned no row');
  return id;
}

export async function updateParcel(
  q: Queryable,
  companyId: number,
  id: number,
  v: ParcelValues,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE parcels SET
        parcel_id = CASE WHEN $3 THEN $4 ELSE parcel_id END,
        registration_number = CASE WHEN $5 THEN $6 ELSE registration_number END,
        size_m2 = CASE WHEN $7 THEN $8::float8 ELSE size_m2 END,
        boundary = CASE WHEN $9 THEN $10::jsonb ELSE boundary END,
        valid_from = CASE WHEN $11 THEN $12::date ELSE valid_from END,
        valid_to = CASE WHEN $13 THEN $14::date ELSE valid_to END,
        updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [
      companyId,
      id,
      v.parcelId !== undefined,
      v.parcelId ?? null,
      v.registrationNumber !== undefined,
      v.registrationNumber ?? null,
      v.sizeM2 !== undefined,
      v.sizeM2 ?? null,
      v.boundary !== undefined,
      v.boundary == null ? null : jsonParam(v.boundary),
      v.validFrom !== undefined,
      v.validFrom ?? null,
      v.validTo !== undefined,
      v.validTo ?? null,
    ],
  );
  return rowCount > 0;
}

export async function deleteParcel(q: Queryable, companyId: number, id: number): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM parcels WHERE company_id = $1 AND id = $2', [
    companyId,
    id,
  ]);
  return rowCount > 0;
}

// The company's soils and plants: built-in entries (@iot/domain) are copied in by code when first used.

export type FarmingCatalogue = 'soils' | 'plants';
const CATALOGUE_TABLE: Record<FarmingCatalogue, string> = { soils: 'soils', plants: 'plants' };

export interface CatalogueRecord {
  id: number;
  code: string;
  name_de: string;
  name_en: string;
}

const CATALOGUE_COLUMNS = 'id::int AS id, code, name AS name_de, name_en';

export async function listCatalogue(
  q: Queryable,
  catalogue: FarmingCatalogue,
  companyId: number,
): Promise<CatalogueRecord[]> {
  const { rows } = await q.query<CatalogueRecord>(
    `SELECT ${CATALOGUE_COLUMNS} FROM ${CATALOGUE_TABLE[catalogue]} WHERE company_id = $1 ORDER BY lower(code), id`,
    [companyId],
  );
  return rows;
}

/** The company's row for `entry.code`, inserted when missing (idempotent under the farming lock). */
export async function ensureCatalogueEntry(
  q: Queryable,
  catalogue: FarmingCatalogue,
  companyId: number,
  entry: { code: string; name_de: string; name_en: string },
): Promise<CatalogueRecord> {
  const table = CATALOGUE_TABLE[catalogue];
  const { rows } = await q.query<CatalogueRecord>(
    `INSERT INTO ${table} (company_id, code, name, name_en) VALUES ($1, $2, $3, $4)
     ON CONFLICT (company_id, code) DO NOTHING RETURNING ${CATALOGUE_COLUMNS}`,
    [companyId, entry.code, entry.name_de, entry.name_en],
  );
  if (rows[0]) return rows[0];
  const found = await q.query<CatalogueRecord>(
    `SELECT ${CATALOGUE_COLUMNS} FROM ${table} WHERE company_id = $1 AND code = $2`,
    [companyId, entry.code],
  );
  if (!found.rows[0]) throw new Error(`${table} entry vanished`);
  return found.rows[0];
}

export async function findCatalogueEntryByCode(
  q: Queryable,
  catalogue: FarmingCatalogue,
  companyId: number,
  code: string,
): Promise<CatalogueRecord | null> {
  const { rows } = await q.query<CatalogueRecord>(
    `SELECT ${CATALOGUE_COLUMNS} FROM ${CATALOGUE_TABLE[catalogue]} WHERE company_id = $1 AND code = $2`,
    [companyId, code],
  );
  return rows[0] ?? null;
}

/** Renames one of the company's own entries (its code stays: fields refer to the row). */
export async function updateCatalogueEntry(
  q: Queryable,
  catalogue: FarmingCatalogue,
  companyId: number,
  id: number,
  names: { name_de: string; name_en: string },
): Promise<CatalogueRecord | null> {
  const { rows } = await q.query<CatalogueRecord>(
    `UPDATE ${CATALOGUE_TABLE[catalogue]} SET name = $3, name_en = $4 WHERE company_id = $1 AND id = $2
     RETURNING ${CATALOGUE_COLUMNS}`,
    [companyId, id, names.name_de, names.name_en],
  );
  return rows[0] ?? null;
}

export async function deleteCatalogueEntry(
  q: Queryable,
  catalogue: FarmingCatalogue,
  companyId: number,
  id: number,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `DELETE FROM ${CATALOGUE_TABLE[catalogue]} WHERE company_id = $1 AND id = $2`,
    [companyId, id],
  );
  return rowCount > 0;
}
