/** Virtual data fields of a device (migration 0003), scoped by the acting company. */
import type { Queryable } from '../db';

export interface VirtualFieldValues {
  name: string;
  unit: string | null;
  formula: string | null;
  function: string | null;
  mapping: Record<string, string | number>;
  store: boolean;
}

export interface VirtualFieldRecord extends VirtualFieldValues {
  id: number;
  deviceId: number;
  uuid: string;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  id: number;
  device_id: number;
  uuid: string;
  name: string;
  unit: string | null;
  formula: string | null;
  function: string | null;
  mapping: Record<string, string | number>;
  store: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id::int AS id, device_id::int AS device_id, uuid::text AS uuid, name, unit, formula, function,
  mapping, store, created_at, updated_at`;

function toRecord(row: Row): VirtualFieldRecord {
  return {
    id: row.id,
    deviceId: row.device_id,
    uuid: row.uuid,
    name: row.name,
    unit: row.unit,
    formula: row.formula,
    function: row.function,
    mapping: row.mapping,
    store: row.store,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function listVirtualFields(
  q: Queryable,
  companyId: number,
  deviceId: number,
): Promise<VirtualFieldRecord[]> {
  const { rows } = await q.query<Row>(
    `SELECT ${COLUMNS} FROM virtual_data_fields WHERE company_id = $1 AND device_id = $2 ORDER BY id`,
    [companyId, deviceId],
  );
  return rows.map(toRecord);
}

export async function insertVirtualField(
  q: Queryable,
  companyId: number,
  deviceId: number,
  uuid: string,
  values: VirtualFieldValues,
): Promise<VirtualFieldRecord> {
  const { rows } = await q.query<Row>(
    `INSERT INTO virtual_data_fields (company_id, device_id, uuid, name, unit, formula, function, mapping, store)
     VALUES ($1, $2, $3::uuid, $4, $5, $6, $7, $8::jsonb, $9) RETURNING ${COLUMNS}`,
    [
      companyId,
      deviceId,
      uuid,
      values.name,
      values.unit,
      values.formula,
      values.function,
      JSON.stringify(values.mapping),
      values.store,
    ],
  );
  return toRecord(rows[0]!);
}

/**
 * Updates a virtual field of the device. A changed formula or function resets the aggregation state (a
 * running sum of another formula means nothing for the new one). Null when the field is not the device's.
 */
export async function updateVirtualField(
  q: Queryable,
  companyId: number,
  deviceId: number,
  id: number,
  values: VirtualFieldValues,
): Promise<VirtualFieldRecord | null> {
  const { rows } = await q.query<Row>(
    `UPDATE virtual_data_fields SET name = $4, unit = $5, formula = $6, function = $7, mapping = $8::jsonb,
       store = $9, updated_at = now(),
       state = CASE WHEN (formula, function) IS DISTINCT FROM ($6::text, $7::text) THEN '{}'::jsonb ELSE state END
     WHERE company_id = $1 AND device_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
    [
      companyId,
      deviceId,
      id,
      values.name,
      values.unit,
      values.formula,
      values.function,
      JSON.stringify(values.mapping),
      values.store,
    ],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function deleteVirtualField(
  q: Queryable,
  companyId: number,
  deviceId: number,
  id: number,
): Promise<boolean> {
  const { rowCount } = await q.query(
    'DELETE FROM virtual_data_fields WHERE company_id = $1 AND device_id = $2 AND id = $3',
    [companyId, deviceId, id],
  );
  return rowCount > 0;
}
