/**
 * The console's device list: the acting company's devices with their latest status, filtered, sorted
 * and paged in SQL, and the map pins as one JSON text. Every call filters by the acting company.
 */
import type { Queryable } from '../db';

export interface DeviceGroupRef {
  id: number;
  name: string;
}

/** One row of the device list: the device, its group and its latest values (device_current). */
export interface DeviceListRecord {
  id: number;
  companyId: number;
  uuid: string;
  name: string;
  description: string | null;
  comment: string | null;
  deviceType: string | null;
  driverId: string | null;
  serialNumber: string | null;
  devEui: string | null;
  state: string;
  isActive: boolean;
  externalAccessible: boolean;
  targetServer: string | null;
  batteryLevel: number | null;
  batteryVoltage: number | null;
  mainsPowered: boolean;
  lastOnlineAt: Date | null;
  signalStrength: number | null;
  rssi: number | null;
  snr: number | null;
  group: DeviceGroupRef | null;
  location: string | null;
  latitude: number | null;
  longitude: number | null;
  mobileDataVolume: number | null;
  sensorType: number | null;
  parkingAreaId: number | null;
  fieldId: number | null;
  metadata: Record<string, unknown>;
  /** Latest value per data field, with the time of each (device_current); empty before the first uplink. */
  current: Record<string, unknown>;
  fieldTimes: Record<string, string>;
  currentUpdatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const DEVICE_SORT_COLUMNS = [
  'id',
  'name',
  'state',
  'device_type',
  'serial_number',
  'last_online_at',
  'battery_level',
  'signal_strength',
  'group',
  'location',
  'created_at',
] as const;
export type DeviceSortColumn = (typeof DEVICE_SORT_COLUMNS)[number];

const SORT_SQL: Record<DeviceSortColumn, string> = {
  id: 'd.id',
  name: 'lower(d.name)',
  state: 'd.state',
  device_type: 'd.device_type',
  serial_number: 'd.serial_number',
  last_online_at: 'c.last_online_at',
  battery_level: 'c.battery_level',
  signal_strength: 'c.signal_strength',
  group: 'lower(g.name)',
  location: 'lower(d.location)',
  created_at: 'd.created_at',
};

/** A battery range in percent: `min < level <= max` (min null: from 0 inclusive). */
export interface BatteryRange {
  min: number | null;
  max: number | null;
}

export interface DeviceListFilter {
  /** Case-insensitive substring of name, serial number, UUID, DevEUI or location. */
  search?: string;
  /** Only these devices (the dashboard's table and chart ask for their few devices). */
  ids?: readonly number[];
  state?: string;
  groupId?: number;
  deviceType?: string;
  /** true: is_active devices only; false: the offline ones (is_active false). */
  active?: boolean;
  /** Devices last heard before this instant (never-heard devices are not stale: there is no data). */
  staleBefore?: Date;
  /** Battery level range, mains powered devices excluded; `'none'` = no battery value. */
  battery?: BatteryRange | 'none' | 'mains';
  fieldId?: number;
  parkingAreaId?: number;
  sort?: DeviceSortColumn;
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

export interface DeviceRow {
  id: number;
  company_id: number;
  uuid: string;
  name: string;
  description: string | null;
  comment: string | null;
  device_type: string | null;
  driver_id: string | null;
  serial_number: string | null;
  dev_eui: string | null;
  state: string;
  is_active: boolean;
  external_accessible: boolean;
  target_server: string | null;
  battery_level: number | null;
  battery_voltage: number | null;
  mains_powered: boolean;
  last_online_at: Date | null;
  signal_strength: number | null;
  rssi: number | null;
  snr: number | null;
  group_id: number | null;
  group_name: string | null;
  location: string | null;
  latitude: number | null;
  longitude: number | null;
  mobile_data_volume: number | null;
  sensor_type: number | null;
  parking_area_id: number | null;
  field_id: number | null;
  metadata: Record<string, unknown> | null;
  current_data: Record<string, unknown> | null;
  field_times: Record<string, string> | null;
  current_updated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

// ids are cast in SQL so pg (strings for int8) and PGlite answer the same numbers.
export const LIST_COLUMNS = `d.id::int AS id, d.company_id::int AS company_id, d.uuid::text AS uuid, d.name,
  d.description, d.comment, d.device_type, d.driver_id, d.serial_number, d.dev_eui, d.state,
  COALESCE(c.is_active, false) AS is_active,
  d.external_accessible, d.target_server, c.battery_level, c.battery_voltage, d.mains_powered,
  c.last_online_at, c.signal_strength::int AS signal_strength, c.rssi, c.snr, d.group_id::int AS group_id,
  g.name AS group_name, d.location, d.latitude, d.longitude, c.mobile_data_volume::float8 AS mobile_data_volume,
  d.sensor_type, d.parking_area_id::int AS parking_area_id, d.field_id::int AS field_id, d.metadata,
  c.data AS current_data, c.field_times, c.updated_at AS current_updated_at, d.created_at, d.updated_at`;

// The group and the latest values join on the company too, so they can only ever be the device's own.
export const LIST_FROM = `devices d
  LEFT JOIN groups g ON g.id = d.group_id AND g.company_id = d.company_id
  LEFT JOIN device_current c ON c.device_id = d.id AND c.company_id = d.company_id`;

export function toListRecord(row: DeviceRow): DeviceListRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    comment: row.comment,
    deviceType: row.device_type,
    driverId: row.driver_id,
    serialNumber: row.serial_number,
    devEui: row.dev_eui,
    state: row.state,
    isActive: row.is_active,
    externalAccessible: row.external_accessible,
    targetServer: row.target_server,
    batteryLevel: row.battery_level,
    batteryVoltage: row.battery_voltage,
    mainsPowered: row.mains_powered,
    lastOnlineAt: row.last_online_at,
    signalStrength: row.signal_strength,
    rssi: row.rssi,
    snr: row.snr,
    group:
      row.group_id !== null && row.group_name !== null ? { id: row.group_id, name: row.group_name } : null,
    location: row.location,
    latitude: row.latitude,
    longitude: row.longitude,
    mobileDataVolume: row.mobile_data_volume,
    sensorType: row.sensor_type,
    parkingAreaId: row.parking_area_id,
    fieldId: row.field_id,
    metadata: row.metadata ?? {},
    current: row.current_data ?? {},
    fieldTimes: row.field_times ?? {},
    currentUpdatedAt: row.current_updated_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Announced (NOTIFY, payload the company id) by every statement that changes what a company's device list
 * shows: its devices, their groups, their latest values (migration 0042's triggers). The API keeps the
 * list's answers in memory per company until then (apps/api `lib/answer-cache.ts`).
 */
export const DEVICE_LIST_CHANGED_CHANNEL = 'iot_device_list_changed';

/**
 * Announced (payload the company id) only by what a map pin coloured by state shows: devices added, edited
 * or removed, latest-values rows added or removed, and latest values that move a device or turn it on- or
 * offline (migration 0044's triggers). Latest values alone are not announced here: a reporting fleet keeps
 * its map list (apps/api `deviceMapCache`).
 */
export const DEVICE_MAP_CHANGED_CHANNEL = 'iot_device_map_changed';

/** `%` and `_` in the user's text are literal characters, not patterns. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The acting company's devices for the device table and the map, filtered and sorted in SQL: one
 * statement (devices + group + latest values), no per-device queries.
 */
type Param = (value: unknown) => string;

/**
 * The SQL of a filtered, sorted list: the columns and joins differ, the filter and order are one.
 * Columns may take parameters of their own, numbered after the filter's.
 */
function listSql(
  columns: string | ((param: Param) => string),
  from: string,
  companyId: number,
  filter: DeviceListFilter,
) {
  const params: unknown[] = [companyId];
  const where = ['d.company_id = $1'];
  const param: Param = (value) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.ids !== undefined) where.push(`d.id = ANY(${param(filter.ids)}::bigint[])`);
  if (filter.search !== undefined && filter.search.trim() !== '') {
    const p = param(likePattern(filter.search.trim()));
    where.push(`(d.name ILIKE ${p} OR d.serial_number ILIKE ${p} OR d.uuid::text ILIKE ${p}
      OR d.dev_eui ILIKE ${p} OR d.location ILIKE ${p})`);
  }
  if (filter.state !== undefined) where.push(`d.state = ${param(filter.state)}`);
  if (filter.groupId !== undefined) where.push(`d.group_id = ${param(filter.groupId)}`);
  if (filter.deviceType !== undefined) where.push(`d.device_type = ${param(filter.deviceType)}`);
  if (filter.active !== undefined) where.push(`COALESCE(c.is_active, false) = ${param(filter.active)}`);
  if (filter.staleBefore !== undefined) where.push(`c.last_online_at < ${param(filter.staleBefore)}`);
  if (filter.fieldId !== undefined) where.push(`d.field_id = ${param(filter.fieldId)}`);
  if (filter.parkingAreaId !== undefined) where.push(`d.parking_area_id = ${param(filter.parkingAreaId)}`);
  if (filter.battery === 'mains') where.push('d.mains_powered');
  else if (filter.battery === 'none') where.push('NOT d.mains_powered AND c.battery_level IS NULL');
  else if (filter.battery !== undefined) {
    where.push('NOT d.mains_powered');
    const { min, max } = filter.battery;
    where.push(min === null ? 'c.battery_level >= 0' : `c.battery_level > ${param(min)}`);
    if (max !== null) where.push(`c.battery_level <= ${param(max)}`);
  }
  const order = filter.order === 'desc' ? 'DESC' : 'ASC';
  const sort = SORT_SQL[filter.sort ?? 'name'];
  const select = typeof columns === 'string' ? columns : columns(param);
  let sql = `SELECT ${select} FROM ${from} WHERE ${where.join(' AND ')}
    ORDER BY ${sort} ${order} NULLS LAST, d.id ${order}`;
  if (filter.limit !== undefined) sql += ` LIMIT ${param(filter.limit)}`;
  if (filter.offset !== undefined) sql += ` OFFSET ${param(filter.offset)}`;
  return { sql, params };
}

export async function listDevices(
  q: Queryable,
  companyId: number,
  filter: DeviceListFilter = {},
): Promise<DeviceListRecord[]> {
  const { sql, params } = listSql(LIST_COLUMNS, LIST_FROM, companyId, filter);
  const { rows } = await q.query<DeviceRow>(sql, params);
  return rows.map(toListRecord);
}

/** A timestamptz as JavaScript's `toISOString()` writes it (UTC, milliseconds truncated as pg's parser does). */
const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The device list's answer object per row, its keys in the order of the API's `DeviceListItem` (the API's
 * `presentDeviceListItem` writes the same from a `DeviceListRecord`): row_to_json of these columns over
 * the page's rows `p` (LIST_COLUMNS).
 */
const LIST_ITEM_JSON = `p.id, p.uuid, p.name, p.description, p.comment, p.device_type, p.driver_id, p.serial_number,
  p.dev_eui, p.state, p.is_active, p.external_accessible, p.target_server, p.battery_level, p.battery_voltage,
  p.mains_powered, ${isoText('p.last_online_at')} AS last_online_at, p.signal_strength, p.rssi, p.snr,
  CASE WHEN p.group_id IS NOT NULL AND p.group_name IS NOT NULL
    THEN json_build_object('id', p.group_id, 'name', p.group_name) END AS "group",
  CASE WHEN p.group_name IS NOT NULL THEN p.group_id END AS group_id,
  p.location, p.latitude, p.longitude, p.mobile_data_volume, p.sensor_type, p.parking_area_id, p.field_id,
  COALESCE(p.metadata, '{}'::jsonb) AS metadata, COALESCE(p.current_data, '{}'::jsonb) AS data,
  COALESCE(p.field_times, '{}'::jsonb) AS field_times, ${isoText('p.current_updated_at')} AS data_updated_at,
  json_build_object('company_id', p.company_id) AS relations`;

/**
 * The same page as `listDevices`, as the JSON text of the API's answer objects (`[{...},...]`), written by
 * the database in one statement: on PGlite the row-by-row form (forty columns a row decoded in its worker,
 * cloned to the main thread, turned into objects and back into JSON there) cost most of a list request
 * (issue #29). The same values as `listDevices` through `presentDeviceListItem`, parsed; numbers are
 * written in PostgreSQL's shortest exact form, object keys from JSONB in its order.
 */
export async function listDevicesJson(
  q: Queryable,
  companyId: number,
  filter: DeviceListFilter = {},
): Promise<string> {
  const order = filter.order === 'desc' ? 'DESC' : 'ASC';
  const { sql, params } = listSql(
    `${LIST_COLUMNS}, row_number() OVER (ORDER BY ${SORT_SQL[filter.sort ?? 'name']} ${order} NULLS LAST, d.id ${order}) AS n`,
    LIST_FROM,
    companyId,
    filter,
  );
  // row_to_json writes no spaces between keys and values, json_agg would between elements: string_agg.
  const { rows } = await q.query<{ body: string }>(
    `WITH p AS MATERIALIZED (${sql})
     SELECT '[' || COALESCE(string_agg(row_to_json(item)::text, ',' ORDER BY p.n), '') || ']' AS body
       FROM p CROSS JOIN LATERAL (SELECT ${LIST_ITEM_JSON}) item`,
    params,
  );
  return rows[0]!.body;
}

/**
 * The list's devices as a map draws them, as the JSON text of columns (index i of every array is one
 * device, in the list's order):
 * `{"count":n,"id":[..],"states":[..],"state":[..],"is_active":[..],"latitude":[..],"longitude":[..],"data":{field:[..]}}`
 * where `state` holds indexes into `states` (in order of first appearance), `is_active` is 1 or 0 and
 * `data` has, per asked field, each device's latest value (null without one).
 *
 * Built by the database in one statement and handed over as one text value: for 10,000 devices the
 * row-by-row form cost the server (PGlite's worker passing 10,000 row objects to the main thread, then a
 * loop and JSON.stringify there) 0.3 to 1.0 s under load; the answer is the same 273 kB either way.
 */
export async function listDevicePinColumnsJson(
  q: Queryable,
  companyId: number,
  filter: DeviceListFilter = {},
  dataFields: readonly string[] = [],
): Promise<string> {
  // device_current holds the latest values and the online flag every pin shows (migration 0015).
  const withData = dataFields.length > 0;
  const order = filter.order === 'desc' ? 'DESC' : 'ASC';
  // n numbers the rows in the list's order (the list's own ORDER BY, LIMIT and OFFSET stay as they are);
  // every column is aggregated by it.
  let fieldsParam = '';
  const { sql, params } = listSql(
    (param) => {
      if (withData) fieldsParam = param([...dataFields]);
      return `d.id::int AS id, d.state, COALESCE(c.is_active, false) AS is_active, d.latitude, d.longitude,
        ${withData ? 'c.data' : 'NULL::jsonb'} AS current_data,
        row_number() OVER (ORDER BY ${SORT_SQL[filter.sort ?? 'name']} ${order} NULLS LAST, d.id ${order}) AS n`;
    },
    LIST_FROM,
    companyId,
    filter,
  );
  // Arrays joined as text (string_agg), not json_agg: PostgreSQL writes json with a space after every
  // comma, a sixth more bytes here. Numbers print as JSON numbers (float8 at its shortest exact form),
  // strings go through to_json for their escaping, a missing value is null.
  const column = (value: string) => `'[' || COALESCE(string_agg(${value}, ',' ORDER BY p.n), '') || ']'`;
  const data = withData
    ? `(SELECT string_agg(to_json(f.name)::text || ':[' || COALESCE((SELECT string_agg(
           COALESCE((p.current_data -> f.name)::text, 'null'), ',' ORDER BY p.n) FROM p), '') || ']',
           ',' ORDER BY f.o)
         FROM unnest(${fieldsParam}::text[]) WITH ORDINALITY AS f(name, o))`
    : "''";
  const { rows } = await q.query<{ body: string }>(
    `WITH p AS MATERIALIZED (${sql}),
          s AS (SELECT state, (row_number() OVER (ORDER BY min(n)) - 1)::int AS i FROM p GROUP BY state)
     SELECT '{"count":' || count(*)
         || ',"id":' || ${column('p.id::text')}
         || ',"states":[' || COALESCE((SELECT string_agg(to_json(s.state)::text, ',' ORDER BY s.i) FROM s), '') || ']'
         || ',"state":' || ${column('s.i::text')}
         || ',"is_active":' || ${column("CASE WHEN p.is_active THEN '1' ELSE '0' END")}
         || ',"latitude":' || ${column("COALESCE(p.latitude::text, 'null')")}
         || ',"longitude":' || ${column("COALESCE(p.longitude::text, 'null')")}
         || ',"data":{' || COALESCE(${data}, '') || '}}' AS body
       FROM p JOIN s ON s.state = p.state`,
    params,
  );
  return rows[0]!.body;
}

/** A device the demo fleet can drive: one whose uplinks ingest can decode. */
export interface SimulatableDeviceRecord {
  id: number;
  uuid: string;
  name: string;
  device_type: string | null;
  driver_id: string | null;
}

/**
 * The company's newest `limit` devices in service whose driver is one of `driverIds` or none (plain
 * JSON uplinks), for the in-process demo fleet. Virtual devices (computed, no hardware) and devices with
 * a user codec (they expect bytes) are not simulated.
 */
export async function listSimulatableDevices(
  q: Queryable,
  companyId: number,
  limit: number,
  driverIds: readonly string[],
): Promise<SimulatableDeviceRecord[]> {
  const { rows } = await q.query<SimulatableDeviceRecord>(
    `SELECT id::int AS id, uuid::text AS uuid, name, device_type, driver_id FROM devices
     WHERE company_id = $1 AND state <> 'disposed' AND (driver_id IS NULL OR driver_id = ANY($3::text[]))
       AND device_type IS DISTINCT FROM 'virtual' AND codec_id IS NULL
     ORDER BY id DESC LIMIT $2`,
    [companyId, limit, driverIds],
  );
  return rows;
}
