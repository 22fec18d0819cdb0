/**
 * Virtual devices (migration 0028): devices whose data fields are formulas over other devices' fields of
 * the same company. The API creates them; the rules worker computes them when an input reports.
 */
import type { Queryable } from '../db';

export interface VirtualFieldDefinition {
  /** The data field the virtual device reports, e.g. soil_humidity_mean. */
  key: string;
  /** Formula over inputs named d<device id>.<field>, e.g. (d12.soil_humidity + d13.soil_humidity) / 2. */
  formula: string;
}

export interface VirtualDeviceInput {
  name: string;
  description: string | null;
  groupId: number | null;
  fields: VirtualFieldDefinition[];
  inputDeviceIds: number[];
}

/** Inserts the device with its formulas and inputs; its id. */
export async function insertVirtualDevice(
  q: Queryable,
  companyId: number,
  input: VirtualDeviceInput,
): Promise<number> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO devices (company_id, name, description, device_type, group_id, virtual_fields)
     VALUES ($1, $2, $3, 'virtual', $4, $5::jsonb) RETURNING id::int AS id`,
    [companyId, input.name, input.description, input.groupId, JSON.stringify(input.fields)],
  );
  const id = rows[0]!.id;
  await q.query(
    `INSERT INTO virtual_device_inputs (company_id, virtual_device_id, input_device_id)
     SELECT $1, $2, unnest($3::bigint[])`,
    [companyId, id, input.inputDeviceIds],
  );
  return id;
}

export interface VirtualDeviceRecord {
  id: number;
  companyId: number;
  fields: VirtualFieldDefinition[];
  inputDeviceIds: number[];
}

/** The virtual devices that read any of `deviceIds` (of `companyId` each), with all their inputs. */
export async function findVirtualDevicesOfInputs(
  q: Queryable,
  refs: readonly { deviceId: number; companyId: number }[],
): Promise<VirtualDeviceRecord[]> {
  if (refs.length === 0) return [];
  const { rows } = await q.query<{
    id: number;
    company_id: number;
    fields: VirtualFieldDefinition[];
    input_ids: number[];
  }>(
    `SELECT d.id::int AS id, d.company_id::int AS company_id, d.virtual_fields AS fields,
            (SELECT array_agg(a.input_device_id::int ORDER BY a.input_device_id)
               FROM virtual_device_inputs a WHERE a.virtual_device_id = d.id) AS input_ids
       FROM devices d
      WHERE d.virtual_fields IS NOT NULL AND d.id IN (
        SELECT i.virtual_device_id FROM virtual_device_inputs i
          JOIN unnest($1::bigint[], $2::bigint[]) AS r(device_id, company_id)
            ON i.input_device_id = r.device_id AND i.company_id = r.company_id)
      ORDER BY d.id`,
    [refs.map((r) => r.deviceId), refs.map((r) => r.companyId)],
  );
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id,
    fields: r.fields,
    inputDeviceIds: r.input_ids ?? [],
  }));
}

/** Latest values of the given devices of one company (device_current), by device id. */
export async function currentValuesOf(
  q: Queryable,
  companyId: number,
  deviceIds: readonly number[],
): Promise<Map<number, Record<string, unknown>>> {
  const { rows } = await q.query<{ device_id: number; data: Record<string, unknown> }>(
    `SELECT device_id::int AS device_id, data FROM device_current WHERE company_id = $1 AND device_id = ANY($2::bigint[])`,
    [companyId, deviceIds],
  );
  return new Map(rows.map((r) => [r.device_id, r.data]));
}

/** The virtual device's computed point becomes its latest values, as an uplink's would. */
export async function upsertVirtualCurrent(
  q: Queryable,
  rows: readonly { deviceId: number; companyId: number; at: string; data: Record<string, number> }[],
): Promise<void> {
  for (const row of rows) {
    const times = Object.fromEntries(Object.keys(row.data).map((k) => [k, row.at]));
    await q.query(
      `INSERT INTO device_current (device_id, company_id, data, field_times, updated_at, last_online_at, is_active)
       VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $5, true)
       ON CONFLICT (device_id) DO UPDATE SET data = device_current.data || EXCLUDED.data,
         field_times = device_current.field_times || EXCLUDED.field_times,
         updated_at = greatest(device_current.updated_at, EXCLUDED.updated_at),
         last_online_at = greatest(device_current.last_online_at, EXCLUDED.last_online_at), is_active = true`,
      [row.deviceId, row.companyId, JSON.stringify(row.data), JSON.stringify(times), row.at],
    );
  }
}
