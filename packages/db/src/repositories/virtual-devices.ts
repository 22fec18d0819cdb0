/**
 * Virtual devices (migration 0028): devices whose data fields are formulas over other devices' fields of
 * the same company. The API creates them; the rules worker computes them when an input reports.
 */
import type { Queryable } from '../db';
import { jsonParam } from './json-param';

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

/** The virtual devices reading a batch's devices, and the latest values of all their inputs. */
export interface VirtualDevicesOfInputs {
  devices: VirtualDeviceRecord[];
  /** device_current.data of every input of `devices`, by device id (inputs without a row are absent). */
  latest: Map<number, Record<string, unknown>>;
}

/**
 * SQL of the virtual devices reading the devices of the pairs relation `pairs` (device_id, company_id):
 * CTEs `vd` (id, company_id, fields, input_ids) and `vi` (device_id, data: the inputs' latest values),
 * both the same company's only. Shared by findVirtualDevicesOfInputs and the rules worker's one batch
 * statement (lockRulesWorkerBatch), which adds the virtual devices to the devices it reads.
 */
export function virtualDevicesOfPairsSql(pairs: string): string {
  return `vd AS MATERIALIZED (
       SELECT d.id, d.company_id, d.virtual_fields AS fields,
              COALESCE((SELECT array_agg(a.input_device_id::int ORDER BY a.input_device_id)
                          FROM virtual_device_inputs a
                         WHERE a.virtual_device_id = d.id AND a.company_id = d.company_id), '{}') AS input_ids
         FROM devices d
        WHERE d.virtual_fields IS NOT NULL AND (d.id, d.company_id) IN (
          SELECT i.virtual_device_id, i.company_id FROM virtual_device_inputs i
            JOIN ${pairs} x ON i.input_device_id = x.device_id AND i.company_id = x.company_id)),
     vi AS (
       SELECT c.device_id, c.data FROM device_current c
        WHERE (c.device_id, c.company_id) IN (SELECT unnest(vd.input_ids), vd.company_id FROM vd))`;
}

/** The `vd` and `vi` rows as two jsonb values of one select list (see virtualDevicesOfPairsSql). */
export const VIRTUAL_DEVICES_COLUMNS = `(SELECT COALESCE(jsonb_agg(jsonb_build_object('id', vd.id, 'companyId', vd.company_id,
          'fields', vd.fields, 'inputDeviceIds', to_jsonb(vd.input_ids)) ORDER BY vd.id), '[]') FROM vd)
          AS virtual_devices,
       (SELECT COALESCE(jsonb_object_agg(vi.device_id::text, vi.data), '{}') FROM vi) AS virtual_inputs`;

export interface VirtualDevicesRow {
  virtual_devices: VirtualDeviceRecord[];
  virtual_inputs: Record<string, Record<string, unknown>>;
}

export function readVirtualDevicesRow(row: VirtualDevicesRow): VirtualDevicesOfInputs {
  return {
    devices: row.virtual_devices,
    latest: new Map(Object.entries(row.virtual_inputs).map(([id, data]) => [Number(id), data])),
  };
}

/**
 * The virtual devices that read any of `refs` (device of company each), with all their inputs and the
 * inputs' latest values, in one statement.
 */
export async function findVirtualDevicesOfInputs(
  q: Queryable,
  refs: readonly { deviceId: number; companyId: number }[],
): Promise<VirtualDevicesOfInputs> {
  if (refs.length === 0) return { devices: [], latest: new Map() };
  const { rows } = await q.query<VirtualDevicesRow>(
    `WITH p AS (SELECT * FROM unnest($1::bigint[], $2::bigint[]) AS r(device_id, company_id)),
     ${virtualDevicesOfPairsSql('p')}
     SELECT ${VIRTUAL_DEVICES_COLUMNS}`,
    [refs.map((r) => r.deviceId), refs.map((r) => r.companyId)],
  );
  return readVirtualDevicesRow(rows[0]!);
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

/**
 * Stored virtual data fields (`virtual.<uuid>.<name>`, virtual_data_fields with store) become latest
 * values of their device too, so the device list, the dashboards' pickers and the data drawer show them
 * like any field (issue 23). Per field the newer time wins, as in the storage writer's merge; a device
 * without a device_current row yet (its first uplink still in the storage writer) gets them with its
 * next point. Rows are locked in device id order. One statement; none without virtual values.
 */
export async function mergeVirtualFieldCurrent(
  q: Queryable,
  rows: readonly {
    device_id: number;
    company_id: number;
    created_at: string;
    data: Record<string, unknown>;
  }[],
): Promise<void> {
  const latest = new Map<
    number,
    { company_id: number; data: Record<string, unknown>; times: Record<string, string> }
  >();
  for (const row of rows) {
    for (const [key, value] of Object.entries(row.data)) {
      if (!key.startsWith('virtual.')) continue;
      const entry = latest.get(row.device_id) ?? { company_id: row.company_id, data: {}, times: {} };
      latest.set(row.device_id, entry);
      const before = entry.times[key];
      if (before !== undefined && Date.parse(before) > Date.parse(row.created_at)) continue;
      entry.data[key] = value;
      entry.times[key] = row.created_at;
    }
  }
  if (latest.size === 0) return;
  const param = [...latest]
    .sort(([a], [b]) => a - b)
    .map(([device_id, e]) => ({ device_id, company_id: e.company_id, data: e.data, field_times: e.times }));
  await q.query(
    `WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb)
                  AS r(device_id bigint, company_id bigint, data jsonb, field_times jsonb)),
          locked AS (SELECT c.device_id FROM device_current c JOIN r USING (device_id)
                      WHERE c.company_id = r.company_id ORDER BY c.device_id FOR UPDATE OF c)
     UPDATE device_current c SET
       data = c.data || COALESCE((
         SELECT jsonb_object_agg(f.key, r.data -> f.key) FROM jsonb_each_text(r.field_times) AS f(key, at)
          WHERE c.field_times ->> f.key IS NULL OR (c.field_times ->> f.key)::timestamptz <= f.at::timestamptz
       ), '{}'::jsonb),
       field_times = c.field_times || COALESCE((
         SELECT jsonb_object_agg(f.key, f.at) FROM jsonb_each_text(r.field_times) AS f(key, at)
          WHERE c.field_times ->> f.key IS NULL OR (c.field_times ->> f.key)::timestamptz <= f.at::timestamptz
       ), '{}'::jsonb)
      FROM r
     WHERE c.device_id = r.device_id AND c.company_id = r.company_id
       AND c.device_id IN (SELECT device_id FROM locked)`,
    [jsonParam(param)],
  );
}

/** A virtual device's formulas and its inputs with their names (the info drawer); null for other devices. */
export async function findVirtualDeviceDefinition(
  q: Queryable,
  companyId: number,
  deviceId: number,
): Promise<{ fields: VirtualFieldDefinition[]; inputs: { id: number; name: string }[] } | null> {
  const { rows } = await q.query<{
    fields: VirtualFieldDefinition[] | null;
    inputs: { id: number; name: string }[];
  }>(
    `SELECT d.virtual_fields AS fields,
            COALESCE((SELECT jsonb_agg(jsonb_build_object('id', i.id, 'name', i.name) ORDER BY i.name, i.id)
                        FROM virtual_device_inputs a
                        JOIN devices i ON i.id = a.input_device_id AND i.company_id = a.company_id
                       WHERE a.virtual_device_id = d.id AND a.company_id = d.company_id), '[]') AS inputs
       FROM devices d WHERE d.company_id = $1 AND d.id = $2`,
    [companyId, deviceId],
  );
  const row = rows[0];
  return row?.fields ? { fields: row.fields, inputs: row.inputs } : null;
}
